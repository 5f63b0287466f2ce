/**
 * A relay that refuses the sender, the relaying or the DATA command is a relay problem (its
 * credentials rotated, this host not on its allow-list, the sender's domain not verified):
 * every queued email waits through it and goes out once the relay is fixed. Only a refusal
 * of the mailbox itself (RCPT TO 550 5.1.1) fails an email at once (review finding 2).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { book, item, openShop } from '../helpers/booking.js';
import { dbNow, mailDispatcher, makeDue, outboxOf, scriptedRelay } from './mail-flow.js';
import { startSmtpServer } from './smtp.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  await t.database.db.deleteFrom('outbox').execute();
});

/** Three confirmations queued, from a shop of their own (ten seats a departure). */
async function bookThree(): Promise<string[]> {
  const shop = await openShop(t.app);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await book(t.app, shop.seller, {
      customerName: `Guest ${i}`,
      customerEmail: `guest${i}@example.com`,
      items: [item(shop.experienceId)],
    });
    expect(r.statusCode, r.body).toBe(201);
    ids.push(r.json().id);
  }
  return ids;
}

describe('a relay-wide refusal', () => {
  const refusals = [
    [
      'MAIL FROM 530 5.7.0 (authentication required)',
      { mail: '530 5.7.0 Authentication required' },
    ],
    ['MAIL FROM 550 5.7.1 (sender not allowed)', { mail: '550 5.7.1 Sender address rejected' }],
    ['RCPT TO 554 5.7.1 (relay access denied)', { rcpt: '554 5.7.1 Relay access denied' }],
    ['RCPT TO 550 5.7.1 (policy)', { rcpt: '550 5.7.1 Client host rejected: access denied' }],
    ['DATA 554 (transaction failed)', { data: '554 5.3.0 Transaction failed' }],
  ] as const;

  it.each(refusals)('%s keeps every email pending, then all go out', async (_, script) => {
    const orderIds = await bookThree();
    const relay = await scriptedRelay({ ...script });
    const mail = mailDispatcher(t.database, relay.port);
    try {
      await mail.runOnce();
      const now = await dbNow(t.database);
      const rows = await outboxOf(t.database, orderIds);
      expect(rows).toHaveLength(3);
      for (const row of rows) {
        expect(row).toMatchObject({ status: 'pending', attempts: 1, locked_until: null });
        expect(row.next_attempt_at.getTime()).toBeGreaterThan(now.getTime());
        expect(row.last_error).toMatch(/^EENVELOPE: /);
      }
      expect(relay.accepted).toBe(0);

      // The relay is fixed: every one of them is delivered.
      relay.script = {};
      await makeDue(t.database);
      expect(await mail.runOnce()).toBe(3);
      expect(relay.accepted).toBe(3);
      expect((await outboxOf(t.database, orderIds)).map((r) => r.status)).toEqual([
        'sent',
        'sent',
        'sent',
      ]);
    } finally {
      await mail.stop();
      await relay.close();
    }
  });
});

describe('a refusal of the mailbox', () => {
  it('RCPT TO 550 5.1.1 fails that email at once', async () => {
    const [orderId] = await bookThree();
    const relay = await scriptedRelay({ rcpt: '550 5.1.1 <guest0@example.com>: No such user' });
    const mail = mailDispatcher(t.database, relay.port);
    try {
      await mail.runOnce();
      const [row] = await outboxOf(t.database, [orderId!]);
      expect(row).toMatchObject({ status: 'failed', attempts: 1 });
      // The reply quoted the address; what is stored keeps only its domain.
      expect(row!.last_error).toMatch(/550 5\.1\.1/);
      expect(row!.last_error).not.toContain('guest0');
    } finally {
      await mail.stop();
      await relay.close();
    }
  });

  it('smtp-server’s 550 without an enhanced status fails at once too', async () => {
    const [orderId] = await bookThree();
    const server = await startSmtpServer(0, { rejectRecipients: 550 });
    const mail = mailDispatcher(t.database, server.port);
    try {
      await mail.runOnce();
      expect((await outboxOf(t.database, [orderId!]))[0]).toMatchObject({
        status: 'failed',
        attempts: 1,
      });
    } finally {
      await mail.stop();
      await server.close();
    }
  });
});
