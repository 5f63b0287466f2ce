/**
 * The outbox table and its repository, on the database under test (PGlite, or PostgreSQL
 * with TEST_DATABASE_URL, where concurrent claims really run on separate connections).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../src/cli/context.js';
import { formatOutbox, printOutbox } from '../../src/cli/outbox.js';
import type { Config } from '../../src/config.js';
import type { Database, Db } from '../../src/db/database.js';
import { enqueue, outboxRepository, type OutboxRow } from '../../src/mail/outbox.repository.js';
import { testConfig } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/database.js';
import { insertEvent, insertExperience, insertOrder, insertUser } from '../helpers/factories.js';

let database: Database;
let db: Db;
let sellerId: string;
let experienceId: string;
let eventId: string;

beforeAll(async () => {
  database = await createTestDatabase({ poolSize: 10 });
  db = database.db;
  sellerId = await insertUser(db);
  experienceId = await insertExperience(db, { sellerId });
  eventId = await insertEvent(db, {
    experienceId,
    sellerId,
    start: new Date('2030-01-02T09:00:00Z'),
    max: null,
  });
});
afterAll(async () => database.close());
beforeEach(async () => {
  await db.deleteFrom('outbox').execute();
});

const newOrder = (on: Db = db) =>
  insertOrder(on, { sellerId, items: [{ experienceId, eventId, arrival: '2030-01-02' }] });

async function row(id: string): Promise<OutboxRow> {
  return db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Milliseconds from the database's now() to a timestamp. */
async function fromDbNow(at: Date | null): Promise<number> {
  const { rows } = await sql<{ now: Date }>`select now() as now`.execute(db);
  return at!.getTime() - rows[0]!.now.getTime();
}

async function queue(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(await enqueue(db, { orderId: await newOrder(), recipient: `c${i}@example.com` }));
  }
  return ids;
}

describe('enqueue', () => {
  it('writes a pending, due message in the caller’s transaction', async () => {
    const id = await db.transaction().execute(async (trx) => {
      const orderId = await newOrder(trx);
      return enqueue(trx, { orderId, recipient: 'ann@example.com' });
    });
    const message = await row(id);
    expect(message).toMatchObject({
      id,
      kind: 'order_confirmation',
      recipient: 'ann@example.com',
      status: 'pending',
      attempts: 0,
      locked_until: null,
      last_error: null,
      sent_at: null,
    });
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(await fromDbNow(message.next_attempt_at)).toBeLessThanOrEqual(0);
  });

  it('leaves nothing behind when the transaction rolls back', async () => {
    let orderId = '';
    await expect(
      db.transaction().execute(async (trx) => {
        orderId = await newOrder(trx);
        await enqueue(trx, { orderId, recipient: 'ann@example.com' });
        throw new Error('booking failed');
      }),
    ).rejects.toThrow('booking failed');
    expect(await db.selectFrom('outbox').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('orders').select('id').where('id', '=', orderId).execute()).toEqual(
      [],
    );
  });

  it('queues one confirmation per order, however often it is called', async () => {
    const orderId = await newOrder();
    const first = await enqueue(db, { orderId, recipient: 'ann@example.com' });
    const second = await enqueue(db, { orderId, recipient: 'ann@example.com' });
    expect(second).toBe(first);
    expect(await db.selectFrom('outbox').select('id').execute()).toEqual([{ id: first }]);
  });
});

describe('claimDue', () => {
  it('hands each message to exactly one of many concurrent claimers', async () => {
    const ids = await queue(30);
    const repo = outboxRepository(db);
    const seen = new Map<string, number>();
    for (let round = 0; round < 10 && seen.size < ids.length; round++) {
      const claims = await Promise.all(Array.from({ length: 8 }, () => repo.claimDue(3, 60_000)));
      for (const claimed of claims) {
        for (const message of claimed) {
          seen.set(message.id, (seen.get(message.id) ?? 0) + 1);
          expect(message.attempts).toBe(1);
        }
      }
    }
    expect([...seen.keys()].sort()).toEqual([...ids].sort());
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
  });

  it('sets a lease and counts the attempt in the claim itself', async () => {
    const [id] = await queue(1);
    const [claimed] = await outboxRepository(db).claimDue(10, 60_000);
    expect(claimed).toMatchObject({ id, attempts: 1, status: 'pending' });
    const lease = await fromDbNow(claimed!.locked_until);
    expect(lease).toBeGreaterThan(55_000);
    expect(lease).toBeLessThanOrEqual(60_000);
    expect(await row(id!)).toMatchObject({ attempts: 1 });
  });

  it('makes a claimed but unfinished message claimable again once its lease expires', async () => {
    const [id] = await queue(1);
    const repo = outboxRepository(db);
    expect((await repo.claimDue(10, 500)).map((m) => m.id)).toEqual([id]);
    expect(await repo.claimDue(10, 60_000)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 650));
    const [again] = await repo.claimDue(10, 60_000);
    expect(again).toMatchObject({ id, attempts: 2 });
    expect(await repo.claimDue(10, 60_000)).toEqual([]);
  });

  it('never claims messages that are not due, sent or failed', async () => {
    const [later, sent, failed, due] = await queue(4);
    await db
      .updateTable('outbox')
      .set({ next_attempt_at: sql<Date>`now() + interval '1 minute'` })
      .where('id', '=', later!)
      .execute();
    const repo = outboxRepository(db);
    await repo.markSent(sent!);
    await repo.markFailed({ id: failed!, attempts: 0 }, 'gave up', 'give-up');
    expect((await repo.claimDue(10, 60_000)).map((m) => m.id)).toEqual([due]);
  });
});

describe('recording outcomes', () => {
  it('schedules a retry by the database clock and releases the lease', async () => {
    const [id] = await queue(1);
    const repo = outboxRepository(db);
    const [claimed] = await repo.claimDue(1, 60_000);
    expect(await repo.markFailed(claimed!, 'ECONNREFUSED: connect refused', 30_000)).toBe(true);
    const message = await row(id!);
    expect(message).toMatchObject({
      status: 'pending',
      attempts: 1,
      locked_until: null,
      last_error: 'ECONNREFUSED: connect refused',
    });
    const wait = await fromDbNow(message.next_attempt_at);
    expect(wait).toBeGreaterThan(25_000);
    expect(wait).toBeLessThanOrEqual(30_000);
  });

  it('ignores a failure reported by a claim whose lease was taken over', async () => {
    const [id] = await queue(1);
    const repo = outboxRepository(db);
    const [stale] = await repo.claimDue(1, 60_000);
    await db
      .updateTable('outbox')
      .set({ locked_until: sql<Date>`now()` })
      .execute();
    const [current] = await repo.claimDue(1, 60_000);
    expect(current!.attempts).toBe(2);
    expect(await repo.markFailed(stale!, 'late', 1)).toBe(false);
    expect((await row(id!)).locked_until).not.toBeNull();
    expect(await repo.markFailed(current!, 'now', 'give-up')).toBe(true);
    expect(await row(id!)).toMatchObject({ status: 'failed', last_error: 'now', attempts: 2 });
  });

  it('marks a message sent once, and a failure reported afterwards does not revive it', async () => {
    const [id] = await queue(1);
    const repo = outboxRepository(db);
    const [claimed] = await repo.claimDue(1, 60_000);
    expect(await repo.markSent(id!)).toBe(true);
    expect(await repo.markSent(id!)).toBe(false);
    expect(await repo.markFailed(claimed!, 'late', 1)).toBe(false);
    const message = await row(id!);
    expect(message).toMatchObject({ status: 'sent', locked_until: null, last_error: null });
    expect(message.sent_at).toBeInstanceOf(Date);
  });

  it('keeps error texts bounded', async () => {
    const [id] = await queue(1);
    const repo = outboxRepository(db);
    const [claimed] = await repo.claimDue(1, 60_000);
    await repo.markFailed(claimed!, 'x'.repeat(5000), 1000);
    expect((await row(id!)).last_error).toHaveLength(1000);
  });
});

describe('listUnsent and cli outbox', () => {
  it('lists pending and failed messages oldest first, never sent ones', async () => {
    const [a, b, c] = await queue(3);
    const repo = outboxRepository(db);
    await repo.markSent(b!);
    const [claimed] = await repo.claimDue(1, 60_000);
    expect(claimed!.id).toBe(a);
    await repo.markFailed(claimed!, 'EENVELOPE: 550 mailbox\nunavailable', 'give-up');
    const rows = await repo.listUnsent();
    expect(rows.map((r) => [r.id, r.status])).toEqual([
      [a, 'failed'],
      [c, 'pending'],
    ]);

    const lines = formatOutbox(rows).split('\n');
    expect(lines[0]).toMatch(/^ID\s+RECIPIENT\s+STATUS\s+ATTEMPTS\s+NEXT ATTEMPT\s+LAST ERROR$/);
    expect(lines[1]).toMatch(
      new RegExp(
        `^${a}\\s+c0@example.com\\s+failed\\s+1\\s+-\\s+EENVELOPE: 550 mailbox unavailable$`,
      ),
    );
    expect(lines[2]).toMatch(
      new RegExp(`^${c}\\s+c2@example.com\\s+pending\\s+0\\s+\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\s+-$`),
    );
    expect(formatOutbox([])).toBe('No unsent email.');
  });

  it('cli outbox prints the queue, and says why it is not moving without SMTP_URL', async () => {
    const [id] = await queue(1);
    const printed: string[] = [];
    let closed = false;
    const open = async () => ({ ...database, close: async () => void (closed = true) });
    const context = (config: Config): CommandContext => ({
      config,
      out: (text) => printed.push(text),
      err: (text) => printed.push(`stderr: ${text}`),
      open,
    });
    await printOutbox(context(testConfig()));
    expect(printed[0]).toBe('SMTP_URL is not set: email stays queued until it is.');
    expect(printed[1]).toMatch(new RegExp(`\\n${id}\\s+c0@example.com\\s+pending\\s+0\\s`));
    expect(closed).toBe(true);

    printed.length = 0;
    await outboxRepository(db).markSent(id!);
    await printOutbox(context(testConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' })));
    expect(printed).toEqual(['No unsent email.']);
  });
});
