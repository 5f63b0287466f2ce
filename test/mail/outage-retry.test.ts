/**
 * An SMTP outage longer than the old ten attempts (about 42 minutes) loses no email: the
 * retries go on by time (OUTBOX_GIVE_UP_AFTER_MS, 72 h), a message given up is counted in
 * `mail_deliveries_total{result="gave_up"}`, and `cli outbox retry` queues it again
 * (review finding 1).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cliOn } from '../helpers/cli.js';
import { createTestApp, testConfig, type TestApp } from '../helpers/app.js';
import { book, item, openShop } from '../helpers/booking.js';
import { mailDispatcher, makeDue, outboxOf } from './mail-flow.js';
import { freePort, startSmtpServer } from './smtp.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  await t.database.db.deleteFrom('outbox').execute();
});

async function bookOne(customerEmail = 'ann@example.com'): Promise<string> {
  const shop = await openShop(t.app);
  const r = await book(t.app, shop.seller, {
    customerName: 'Ann Walker',
    customerEmail,
    items: [item(shop.experienceId)],
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().id;
}

/** `cli …` on this test's database and configuration. */
const cli = (...args: string[]) => cliOn(t, ...args);

async function gaveUp(): Promise<number> {
  const r = await t.app.inject({ method: 'GET', url: '/metrics' });
  expect(r.statusCode).toBe(200);
  const line = /^mail_deliveries_total\{result="gave_up"\} (\d+)$/m.exec(r.body);
  return Number(line?.[1] ?? 0);
}

describe('an SMTP outage', () => {
  it('keeps the email through more than the old ten attempts, then sends it', async () => {
    const orderId = await bookOne();
    const port = await freePort(); // SMTP is down
    // The production settings (retry base, give-up window), as the server passes them.
    const mail = mailDispatcher(t.database, port, { ...testConfig().outbox, pollMs: 10 });
    try {
      for (let attempt = 1; attempt <= 15; attempt++) {
        await makeDue(t.database);
        await mail.runOnce();
      }
      const [waiting] = await outboxOf(t.database, [orderId]);
      expect(waiting).toMatchObject({ status: 'pending', attempts: 15 });
      expect(waiting!.last_error).toMatch(/ECONNREFUSED/);

      const server = await startSmtpServer(port);
      try {
        await makeDue(t.database);
        expect(await mail.runOnce()).toBe(1);
        expect(server.received.map((m) => m.rcptTo)).toEqual([['ann@example.com']]);
        expect((await outboxOf(t.database, [orderId]))[0]).toMatchObject({ status: 'sent' });
      } finally {
        await server.close();
      }
    } finally {
      await mail.stop();
    }
  });

  it('gives up once the retries span OUTBOX_GIVE_UP_AFTER_MS, counts it, and `cli outbox retry --failed` sends it', async () => {
    const orderId = await bookOne();
    const port = await freePort();
    // 5 s, 10 s, 20 s: the fourth attempt's retries have spanned 30 s.
    const outbox = testConfig({ OUTBOX_GIVE_UP_AFTER_MS: '30000' }).outbox;
    const mail = mailDispatcher(t.database, port, outbox);
    const before = await gaveUp();
    try {
      for (let attempt = 1; attempt <= 4; attempt++) {
        await makeDue(t.database);
        await mail.runOnce();
      }
      expect((await outboxOf(t.database, [orderId]))[0]).toMatchObject({
        status: 'failed',
        attempts: 4,
      });
      expect(await gaveUp()).toBe(before + 1);

      const server = await startSmtpServer(port);
      try {
        const retried = await cli('outbox', 'retry', '--failed');
        expect(retried.code, retried.out.join('\n')).toBe(0);
        const [row] = await outboxOf(t.database, [orderId]);
        expect(retried.out).toContain(`queued ${row!.id}`);
        expect(row).toMatchObject({ status: 'pending', attempts: 0 });
        expect(await mail.runOnce()).toBe(1);
        expect(server.received.map((m) => m.rcptTo)).toEqual([['ann@example.com']]);
        expect((await outboxOf(t.database, [orderId]))[0]).toMatchObject({
          status: 'sent',
          attempts: 1,
        });
      } finally {
        await server.close();
      }
    } finally {
      await mail.stop();
    }
  });
});

describe('cli outbox retry <id>', () => {
  it('queues the failed email named, and refuses one that is not failed', async () => {
    const failedOrder = await bookOne('ann@example.com');
    const pendingOrder = await bookOne('bob@example.com');
    const [failed] = await outboxOf(t.database, [failedOrder]);
    const [pending] = await outboxOf(t.database, [pendingOrder]);
    await t.database.db
      .updateTable('outbox')
      .set({ status: 'failed', attempts: 90, last_error: 'ETIMEDOUT' })
      .where('id', '=', failed!.id)
      .execute();

    const refused = await cli('outbox', 'retry', pending!.id);
    expect(refused.code).toBe(1);
    expect(refused.out.join('\n')).toContain(`not a failed email: ${pending!.id}`);
    expect((await cli('outbox', 'retry')).code).toBe(1); // neither ids nor --failed

    const retried = await cli('outbox', 'retry', failed!.id);
    expect(retried.code, retried.out.join('\n')).toBe(0);
    expect((await outboxOf(t.database, [failedOrder]))[0]).toMatchObject({
      status: 'pending',
      attempts: 0,
    });

    const server = await startSmtpServer(0);
    const mail = mailDispatcher(t.database, server.port);
    try {
      expect(await mail.runOnce()).toBe(2);
      expect(server.received.map((m) => m.rcptTo[0]).sort()).toEqual([
        'ann@example.com',
        'bob@example.com',
      ]);
    } finally {
      await mail.stop();
      await server.close();
    }
  });
});
