/**
 * The mail dispatcher against a real SMTP server (smtp-server on a loopback port): outages
 * and retries, exactly-once sending across restarts and instances, graceful stop, giving
 * up, and what the receiver gets.
 */
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/db/database.js';
import {
  createDispatcher,
  type Dispatcher,
  type DispatcherOptions,
  type MailLogger,
} from '../../src/mail/dispatcher.js';
import { enqueue, outboxRepository, type OutboxRow } from '../../src/mail/outbox.repository.js';
import { createTestDatabase } from '../helpers/database.js';
import { insertEvent, insertExperience, insertOrder, insertUser } from '../helpers/factories.js';
import { freePort, parseMail, startSmtpServer } from './smtp.js';

const FROM = 'Bookings <bookings@mail.example.test>';
const CUSTOMER = '<b>Ann & "Bob"</b>';
const RECIPIENT = 'ann.private@customer.example';

let database: Database;
let db: Db;
let sellerId: string;
let experienceId: string;
let eventId: string;

beforeAll(async () => {
  database = await createTestDatabase({ poolSize: 10 });
  db = database.db;
  sellerId = await insertUser(db);
  experienceId = await insertExperience(db, { sellerId, name: 'Kayak <Tour> & "Fun"' });
  eventId = await insertEvent(db, {
    experienceId,
    sellerId,
    start: new Date('2030-01-15T09:30:00Z'),
    max: null,
  });
});
afterAll(async () => database.close());

// Everything a test starts is stopped, even when an assertion fails half-way.
const cleanups: (() => Promise<void>)[] = [];
beforeEach(async () => {
  await db.deleteFrom('outbox').execute();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface LogLine {
  level: string;
  details: object;
  message: string;
}
let logs: LogLine[] = [];
const logger: MailLogger = {
  info: (details, message) => logs.push({ level: 'info', details, message }),
  warn: (details, message) => logs.push({ level: 'warn', details, message }),
  error: (details, message) => logs.push({ level: 'error', details, message }),
};
beforeEach(() => {
  logs = [];
});

function dispatcher(port: number, options: Partial<DispatcherOptions> = {}): Dispatcher {
  const d = createDispatcher({
    db,
    smtpUrl: `smtp://127.0.0.1:${port}`,
    from: FROM,
    logger,
    pollMs: 20,
    retryBaseMs: 60_000,
    maxAttempts: 5,
    leaseMs: 10_000,
    ...options,
  });
  cleanups.push(() => d.stop());
  return d;
}

async function smtp(port = 0, behaviour: Parameters<typeof startSmtpServer>[1] = {}) {
  const server = await startSmtpServer(port, behaviour);
  cleanups.push(() => server.close());
  return server;
}

async function queueConfirmation(recipient = RECIPIENT): Promise<{ id: string; orderId: string }> {
  const orderId = await insertOrder(db, {
    sellerId,
    customerName: CUSTOMER,
    customerEmail: recipient,
    items: [
      {
        experienceId,
        eventId,
        name: 'Kayak <Tour> & "Fun"',
        arrival: '2030-01-15',
        arrivalTime: 930,
        quantity: 2,
        price: 50,
      },
    ],
  });
  // The factory books in UTC; make it Paris, where 09:30 UTC is 10:30 (+01:00 in January).
  await db
    .updateTable('order_items')
    .set({ timezone: 'Europe/Paris', arrival_time: 1030 })
    .where('order_id', '=', orderId)
    .execute();
  const id = await db.transaction().execute((trx) => enqueue(trx, { orderId, recipient }));
  return { id, orderId };
}

async function row(id: string): Promise<OutboxRow> {
  return db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function dbNow(): Promise<Date> {
  const { rows } = await sql<{ now: Date }>`select now() as now`.execute(db);
  return rows[0]!.now;
}

/** "Time passes": makes every pending message due now. */
const makeDue = () =>
  db
    .updateTable('outbox')
    .set({ next_attempt_at: sql<Date>`now()` })
    .execute();

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the dispatcher', () => {
  it('keeps a message through an SMTP outage and sends it exactly once when SMTP is back', async () => {
    const port = await freePort();
    const { id } = await queueConfirmation();
    const first = dispatcher(port);

    // SMTP is down: the attempt fails, is counted, and is scheduled for later.
    expect(await first.runOnce()).toBe(0);
    const failed = await row(id);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, locked_until: null });
    expect(failed.last_error).toMatch(/ECONNREFUSED/);
    const wait = failed.next_attempt_at.getTime() - (await dbNow()).getTime();
    expect(wait).toBeGreaterThan(50_000); // retryBaseMs 60 s, jittered ±10 %
    expect(wait).toBeLessThanOrEqual(66_000);
    // Not due yet: nothing is claimed, nothing counted.
    expect(await first.runOnce()).toBe(0);
    expect((await row(id)).attempts).toBe(1);

    const server = await smtp(port);
    await makeDue();
    expect(await first.runOnce()).toBe(1);
    expect(server.received).toHaveLength(1);
    const sent = await row(id);
    expect(sent).toMatchObject({
      status: 'sent',
      attempts: 2,
      locked_until: null,
      last_error: null,
    });
    expect(sent.sent_at).toBeInstanceOf(Date);

    // Further runs, and a restarted process polling for a while, never send it again.
    expect(await first.runOnce()).toBe(0);
    await first.stop();
    const restarted = dispatcher(port);
    expect(await restarted.runOnce()).toBe(0);
    restarted.start();
    await sleep(200);
    await restarted.stop();
    expect(server.received).toHaveLength(1);
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('sends the confirmation: recipient, subject, escaped HTML part and a text part', async () => {
    const server = await smtp();
    const { id, orderId } = await queueConfirmation();
    expect(await dispatcher(server.port).runOnce()).toBe(1);

    const [mail] = server.received;
    expect(mail!.mailFrom).toBe('bookings@mail.example.test');
    expect(mail!.rcptTo).toEqual([RECIPIENT]);
    const { headers, parts } = parseMail(mail!.raw);
    expect(headers.get('to')).toBe(RECIPIENT);
    expect(headers.get('from')).toBe(FROM);
    expect(headers.get('message-id')).toBe(`<outbox.${id}@mail.example.test>`);

    const text = parts.get('text/plain')!;
    expect(text).toContain(`Hello ${CUSTOMER},`);
    // The code the guest reads out, not the 24-character order id.
    const { short_code } = await db
      .selectFrom('orders')
      .select('short_code')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    // The subject names the booking by that code, never by the seller's text.
    expect(headers.get('subject')).toBe(`Booking confirmed: ${short_code}`);
    expect(text).toContain(`Your booking code: ${short_code}`);
    expect(text).not.toContain(orderId);
    expect(text).toContain('1. Kayak <Tour> & "Fun"');
    expect(text).toContain('Arrival: Tue 15 Jan 2030, 10:30 (Europe/Paris)');
    expect(text).toContain('Quantity: 2');
    expect(text).toContain('Amount: 100.00 USD');
    expect(text).toContain('Total: 100.00 USD');

    // Layout whitespace squashed: it is the formatter's, not content.
    const html = parts.get('text/html')!.replace(/\s+/g, ' ');
    expect(html).toContain('Hello &lt;b&gt;Ann &amp; &quot;Bob&quot;&lt;/b&gt;,');
    expect(html).toContain('Kayak &lt;Tour&gt; &amp; &quot;Fun&quot;');
    expect(html).not.toContain('<b>Ann');
    expect(html).not.toContain('<Tour>');
    expect(html).toContain('Tue 15 Jan 2030, 10:30 (Europe/Paris)');
    expect(html).toContain('100.00 USD');
  });

  it('logs the recipient’s domain at most, never the address, the name or the content', async () => {
    const port = await freePort();
    const { id } = await queueConfirmation();
    const d = dispatcher(port);
    await d.runOnce();
    await smtp(port);
    await makeDue();
    await d.runOnce();
    expect(logs.map((l) => [l.level, l.message])).toEqual([
      ['warn', 'email failed; will retry'],
      ['info', 'email sent'],
    ]);
    expect(logs[1]!.details).toMatchObject({ outboxId: id, domain: 'customer.example' });
    const logged = JSON.stringify(logs);
    expect(logged).not.toContain('ann.private');
    expect(logged).not.toContain('Ann');
    expect(logged).not.toContain('Kayak');
  });

  it('resends with the same Message-ID a message whose sender died before recording it', async () => {
    const server = await smtp();
    const { id } = await queueConfirmation();
    // A process claims the message and dies: no outcome is ever recorded.
    await outboxRepository(db).claimDue(1, 600);
    const d = dispatcher(server.port);
    expect(await d.runOnce()).toBe(0); // still leased
    await sleep(750);
    expect(await d.runOnce()).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(parseMail(server.received[0]!.raw).headers.get('message-id')).toBe(
      `<outbox.${id}@mail.example.test>`,
    );
  });

  it('stop() waits for a send in flight and records it', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let accepting!: () => void;
    const dataArrived = new Promise<void>((resolve) => (accepting = resolve));
    const server = await smtp(0, {
      beforeAccept: () => {
        accepting();
        return released;
      },
    });
    const { id } = await queueConfirmation();
    const d = dispatcher(server.port);
    d.start();
    await dataArrived;

    let stopped = false;
    const stopping = d.stop().then(() => (stopped = true));
    await sleep(150);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(server.received).toHaveLength(1);
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 1 });
    await expect(d.runOnce()).rejects.toThrow(/stopped/);
  });

  it('gives up after maxAttempts and leaves the message listed as failed', async () => {
    const port = await freePort();
    const { id } = await queueConfirmation();
    const d = dispatcher(port, { maxAttempts: 3, retryBaseMs: 1 });
    for (let attempt = 1; attempt <= 3; attempt++) {
      await makeDue();
      expect(await d.runOnce()).toBe(0);
      expect(await row(id)).toMatchObject({
        attempts: attempt,
        status: attempt < 3 ? 'pending' : 'failed',
      });
    }
    await makeDue();
    expect(await d.runOnce()).toBe(0);
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: 3 });
    expect((await row(id)).last_error).toMatch(/ECONNREFUSED/);
    expect((await outboxRepository(db).listUnsent()).map((r) => r.id)).toEqual([id]);
    expect(logs.at(-1)).toMatchObject({ level: 'error', message: 'email failed; giving up' });

    // Even once SMTP is back, a failed message is not sent by itself.
    const server = await smtp(port);
    expect(await d.runOnce()).toBe(0);
    expect(server.received).toHaveLength(0);
  });

  it('gives up at once on a permanent refusal of the recipient', async () => {
    const server = await smtp(0, { rejectRecipients: 550 });
    const { id } = await queueConfirmation();
    expect(await dispatcher(server.port).runOnce()).toBe(0);
    const message = await row(id);
    expect(message).toMatchObject({ status: 'failed', attempts: 1 });
    expect(message.last_error).toMatch(/^EENVELOPE: .*550/);
    // The reply quoted the address; what is stored and logged keeps only its domain.
    expect(message.last_error).not.toContain('ann.private');
    expect(JSON.stringify(logs)).not.toContain('ann.private');
  });

  it('abandons a message whose claims kept ending without a result', async () => {
    const server = await smtp();
    const { id } = await queueConfirmation();
    await db.updateTable('outbox').set({ attempts: 5 }).where('id', '=', id).execute();
    expect(await dispatcher(server.port, { maxAttempts: 5 }).runOnce()).toBe(0);
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: 6 });
    expect(server.received).toHaveLength(0);
  });

  it('shares the work between instances without sending anything twice', async () => {
    const server = await smtp();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await queueConfirmation(`c${i}@example.com`)).id);
    const instances = [
      dispatcher(server.port, { batchSize: 2 }),
      dispatcher(server.port, { batchSize: 2 }),
    ];
    for (const instance of instances) instance.start();
    await until(async () => {
      const sent = await db
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'sent')
        .executeTakeFirstOrThrow();
      return Number(sent.n) === ids.length;
    });
    await Promise.all(instances.map((instance) => instance.stop()));
    const messageIds = server.received.map((m) => parseMail(m.raw).headers.get('message-id'));
    expect(messageIds).toHaveLength(ids.length);
    expect(new Set(messageIds).size).toBe(ids.length);
    expect(server.received.map((m) => m.rcptTo[0]).sort()).toEqual(
      ids.map((_, i) => `c${i}@example.com`).sort(),
    );
  });
});
