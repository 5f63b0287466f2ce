/**
 * Order emails as consumers of domain events (src/mail/mail.consumer.ts), through the public
 * API and a real SMTP server: a booking's confirmation, a cancellation's email, and never
 * "Booking confirmed" for an order canceled before its confirmation went out.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatcher, type Dispatcher } from '../../src/mail/dispatcher.js';
import { as, createTestApp, signUp, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { parseMail, startSmtpServer, freePort, type TestSmtpServer } from '../mail/smtp.js';

let t: TestApp;
let smtp: TestSmtpServer;
let mail: Dispatcher;
let shop: Shop;

beforeAll(async () => {
  t = await createTestApp();
  smtp = await startSmtpServer(await freePort());
  mail = createDispatcher({
    db: t.database.db,
    smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
    from: 'Bookings <bookings@example.test>',
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    retryBaseMs: 10,
  });
});
afterAll(async () => {
  await mail.stop();
  await smtp.close();
  await t.close();
});
beforeEach(async () => {
  shop = await openShop(t.app);
  smtp.received.length = 0;
});

async function bookFor(email: string): Promise<string> {
  const response = await book(t.app, shop.seller, {
    customerName: 'Ann Walker',
    customerEmail: email,
    items: [item(shop.experienceId)],
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

const cancel = (orderId: string) =>
  as(t.app, shop.seller, { method: 'POST', url: `/api/orders/${orderId}/cancel` });

const emailsOf = (orderId: string) =>
  t.database.db
    .selectFrom('outbox')
    .select(['kind', 'status'])
    .where('order_id', '=', orderId)
    .orderBy('kind')
    .execute();

/** The subjects an order's emails carry: its short code, never the seller's text. */
async function subjectsOf(orderId: string) {
  const { short_code: code } = await t.database.db
    .selectFrom('orders')
    .select('short_code')
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  return { confirmed: `Booking confirmed: ${code}`, canceled: `Booking canceled: ${code}` };
}

const subjectsTo = (address: string) =>
  smtp.received
    .filter((m) => m.rcptTo.includes(address))
    .map((m) => parseMail(m.raw).headers.get('subject'));

describe('order emails', () => {
  it('a booking is confirmed; its cancellation afterwards sends the cancellation email', async () => {
    const orderId = await bookFor('ann.one@example.com');
    const subject = await subjectsOf(orderId);
    while ((await mail.runOnce()) > 0);
    expect(subjectsTo('ann.one@example.com')).toEqual([subject.confirmed]);

    expect((await cancel(orderId)).statusCode).toBe(200);
    expect(await emailsOf(orderId)).toEqual([
      { kind: 'order_cancellation', status: 'pending' },
      { kind: 'order_confirmation', status: 'sent' },
    ]);
    while ((await mail.runOnce()) > 0);
    expect(subjectsTo('ann.one@example.com')).toEqual([subject.confirmed, subject.canceled]);
    const [, canceled] = smtp.received.filter((m) => m.rcptTo.includes('ann.one@example.com'));
    expect(parseMail(canceled!.raw).parts.get('text/plain')).toContain(
      'Your booking has been canceled.',
    );
  });

  it('a customer who retargets its order before cancelling cannot aim the cancellation elsewhere', async () => {
    const mallory = await signUp(t.app, { name: 'Mallory' });
    const booked = await book(t.app, mallory, { items: [item(shop.experienceId)] });
    expect(booked.statusCode, booked.body).toBe(201);
    const orderId = booked.json().id;
    const subject = await subjectsOf(orderId);
    while ((await mail.runOnce()) > 0);
    expect(subjectsTo(mallory.email)).toEqual([subject.confirmed]);
    const retargeted = await as(t.app, mallory, {
      method: 'PATCH',
      url: `/api/orders/${orderId}`,
      payload: { customerEmail: 'victim@example.org', customerName: 'Cheap pills' },
    });
    expect(retargeted.statusCode, retargeted.body).toBe(200);
    const canceled = await as(t.app, mallory, {
      method: 'POST',
      url: `/api/orders/${orderId}/cancel`,
    });
    expect(canceled.statusCode).toBe(200);
    while ((await mail.runOnce()) > 0);
    expect(subjectsTo('victim@example.org')).toEqual([]);
    // The cancellation goes where the confirmation went.
    expect(subjectsTo(mallory.email)).toEqual([subject.confirmed, subject.canceled]);
  });

  it('a staff hold or pending order confirms nothing until its items are confirmed, then sends the confirmation once', async () => {
    for (const status of [100, 103]) {
      const address = `held.${status}@example.com`;
      const held = await book(t.app, shop.seller, {
        customerName: 'Held Guest',
        customerEmail: address,
        items: [{ ...item(shop.experienceId, '2030-07-01', 900, 2), status }],
      });
      expect(held.statusCode, held.body).toBe(201);
      const order = held.json();
      const subject = await subjectsOf(order.id);
      while ((await mail.runOnce()) > 0);
      expect(await emailsOf(order.id)).toEqual([]);
      expect(subjectsTo(address)).toEqual([]);

      const confirm = (to: number) =>
        as(t.app, shop.seller, {
          method: 'PATCH',
          url: `/api/orders/${order.id}`,
          payload: { items: [{ id: order.items[0].id, status: to }] },
        });
      expect((await confirm(200)).statusCode).toBe(200);
      while ((await mail.runOnce()) > 0);
      expect(subjectsTo(address)).toEqual([subject.confirmed]);
      // Back to pending and confirmed again: the customer already has its confirmation.
      expect((await confirm(100)).statusCode).toBe(200);
      expect((await confirm(200)).statusCode).toBe(200);
      while ((await mail.runOnce()) > 0);
      expect(subjectsTo(address)).toEqual([subject.confirmed]);
    }
  });

  it('a hold canceled before it was confirmed sends neither email', async () => {
    const held = await book(t.app, shop.seller, {
      customerName: 'Held Guest',
      customerEmail: 'held.cancel@example.com',
      items: [{ ...item(shop.experienceId, '2030-07-02', 900, 1), status: 103 }],
    });
    expect(held.statusCode, held.body).toBe(201);
    expect((await cancel(held.json().id)).statusCode).toBe(200);
    while ((await mail.runOnce()) > 0);
    expect(await emailsOf(held.json().id)).toEqual([]);
    expect(subjectsTo('held.cancel@example.com')).toEqual([]);
  });

  it('canceled before the confirmation went out: nothing is sent at all', async () => {
    const orderId = await bookFor('ann.two@example.com');
    expect((await cancel(orderId)).statusCode).toBe(200);
    expect(await emailsOf(orderId)).toEqual([{ kind: 'order_confirmation', status: 'skipped' }]);
    await mail.runOnce();
    expect(subjectsTo('ann.two@example.com')).toEqual([]);
  });

  it('canceled while the confirmation was being sent: the confirmation is skipped at send time, and so is the cancellation', async () => {
    const orderId = await bookFor('ann.three@example.com');
    // Another dispatcher holds the confirmation (its lease runs) when the order is canceled.
    await t.database.db
      .updateTable('outbox')
      .set({ locked_until: new Date(Date.now() + 60_000) })
      .where('order_id', '=', orderId)
      .execute();
    expect((await cancel(orderId)).statusCode).toBe(200);
    expect(await emailsOf(orderId)).toEqual([
      { kind: 'order_cancellation', status: 'pending' },
      { kind: 'order_confirmation', status: 'pending' },
    ]);
    // That dispatcher died: the lease runs out and this one takes the confirmation over.
    await t.database.db
      .updateTable('outbox')
      .set({ locked_until: null })
      .where('order_id', '=', orderId)
      .execute();
    for (let i = 0; i < 5; i++) {
      await mail.runOnce();
      await t.database.db
        .updateTable('outbox')
        .set({ next_attempt_at: new Date(0) })
        .where('order_id', '=', orderId)
        .where('status', '=', 'pending')
        .execute();
    }
    expect(await emailsOf(orderId)).toEqual([
      { kind: 'order_cancellation', status: 'skipped' },
      { kind: 'order_confirmation', status: 'skipped' },
    ]);
    expect(subjectsTo('ann.three@example.com')).toEqual([]);
  });
});
