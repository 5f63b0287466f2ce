/**
 * A cancellation queued while its confirmation is being sent (by another instance) waits for
 * it; the waiting is not an attempt, so however long the confirmation's send takes, the
 * cancellation is not abandoned and the customer hears of both, in order (review finding 8).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { as, createTestApp, type TestApp } from '../helpers/app.js';
import { book, item, openShop } from '../helpers/booking.js';
import { mailDispatcher, makeDue, outboxOf } from './mail-flow.js';
import { parseMail, startSmtpServer } from './smtp.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

it('a cancellation outwaits a slow confirmation without using up its attempts', async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const dataArrived = new Promise<void>((resolve) => (arrived = resolve));
  let first = true;
  const smtp = await startSmtpServer(0, {
    beforeAccept: () => {
      if (!first) return Promise.resolve();
      first = false;
      arrived();
      return released; // a slow relay holding the confirmation's end of data
    },
  });
  const shop = await openShop(t.app);
  const booked = await book(t.app, shop.seller, {
    customerName: 'Ann Walker',
    customerEmail: 'ann@example.com',
    items: [item(shop.experienceId)],
  });
  expect(booked.statusCode, booked.body).toBe(201);
  const { id: orderId, shortCode } = booked.json();

  // Two instances; each would abandon a message after 3 attempts.
  const sending = mailDispatcher(t.database, smtp.port, { maxAttempts: 3, retryBaseMs: 1 });
  const other = mailDispatcher(t.database, smtp.port, { maxAttempts: 3, retryBaseMs: 1 });
  try {
    const confirmation = sending.runOnce();
    await dataArrived;
    const canceled = await as(t.app, shop.seller, {
      method: 'POST',
      url: `/api/orders/${orderId}/cancel`,
    });
    expect(canceled.statusCode, canceled.body).toBe(200);

    // The other instance claims the cancellation again and again while the confirmation is
    // in flight: more than its attempts allow.
    for (let i = 0; i < 10; i++) {
      await makeDue(t.database);
      await other.runOnce();
    }
    const waiting = (await outboxOf(t.database, [orderId])).find(
      (r) => r.kind === 'order_cancellation',
    );
    expect(waiting).toMatchObject({ status: 'pending', attempts: 0 });

    release();
    expect(await confirmation).toBe(1);
    await makeDue(t.database);
    expect(await other.runOnce()).toBe(1);
    expect(smtp.received.map((m) => parseMail(m.raw).headers.get('subject'))).toEqual([
      `Booking confirmed: ${shortCode}`,
      `Booking canceled: ${shortCode}`,
    ]);
    const rows = await outboxOf(t.database, [orderId]);
    expect(rows.map((r) => [r.kind, r.status])).toEqual([
      ['order_confirmation', 'sent'],
      ['order_cancellation', 'sent'],
    ]);
  } finally {
    release();
    await sending.stop();
    await other.stop();
    await smtp.close();
  }
});
