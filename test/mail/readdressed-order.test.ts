/**
 * A confirmation queued for an address the order no longer has (`customerEmail` changed
 * before it went out): never sent to the old address, a typo or a stranger's (review
 * finding 4). Staff's correction takes it to the new address; one the new address's relay
 * caps refuse (a customer account mailing others past its hour's share) is skipped, and so
 * is one already claimed when the address changed.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { as, createTestApp, signUp, type TestApp } from '../helpers/app.js';
import { book, item, openShop } from '../helpers/booking.js';
import { mailDispatcher, outboxOf, recordingLogger } from './mail-flow.js';
import { startSmtpServer } from './smtp.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function bookAndCorrect(typed: string, corrected: string): Promise<string> {
  const shop = await openShop(t.app);
  const r = await book(t.app, shop.seller, {
    customerName: 'Ann Walker',
    customerEmail: typed,
    items: [item(shop.experienceId)],
  });
  expect(r.statusCode, r.body).toBe(201);
  const patched = await as(t.app, shop.seller, {
    method: 'PATCH',
    url: `/api/orders/${r.json().id}`,
    payload: { customerEmail: corrected },
  });
  expect(patched.statusCode, patched.body).toBe(200);
  return r.json().id;
}

it('sends the confirmation to the address staff corrected it to, not the mistyped one', async () => {
  const orderId = await bookAndCorrect('ann@exmaple.com', 'ann@example.com');
  const smtp = await startSmtpServer(0);
  const mail = mailDispatcher(t.database, smtp.port);
  try {
    expect(await mail.runOnce()).toBe(1);
    expect(smtp.received.map((m) => m.rcptTo)).toEqual([['ann@example.com']]);
    expect(await outboxOf(t.database, [orderId])).toMatchObject([
      { kind: 'order_confirmation', recipient: 'ann@example.com', status: 'sent' },
    ]);
  } finally {
    await mail.stop();
    await smtp.close();
  }
});

it('skips it when the new address is past the relay cap of whoever changed it', async () => {
  const capped = await createTestApp({ CONFIRMATIONS_TO_OTHERS_PER_HOUR: '0' });
  try {
    const shop = await openShop(capped.app);
    const customer = await signUp(capped.app);
    const booked = await book(capped.app, customer, { items: [item(shop.experienceId)] });
    expect(booked.statusCode, booked.body).toBe(201);
    const orderId = booked.json().id as string;
    // A customer account turning its own order's confirmation on a stranger.
    const patched = await as(capped.app, customer, {
      method: 'PATCH',
      url: `/api/orders/${orderId}`,
      payload: { customerEmail: 'stranger@example.com' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const smtp = await startSmtpServer(0);
    const logger = recordingLogger();
    const mail = mailDispatcher(capped.database, smtp.port, { logger });
    try {
      expect(await mail.runOnce()).toBe(0);
      expect(smtp.received).toHaveLength(0);
      expect(await outboxOf(capped.database, [orderId])).toMatchObject([
        { kind: 'order_confirmation', recipient: customer.email, status: 'skipped' },
      ]);
      expect(logger.lines).toMatchObject([
        { level: 'info', message: "email skipped: the order's customerEmail changed" },
      ]);
      expect(JSON.stringify(logger.lines)).not.toContain('stranger@');
    } finally {
      await mail.stop();
      await smtp.close();
    }
  } finally {
    await capped.close();
  }
});

it('still sends it when only the letter case of the address changed', async () => {
  const orderId = await bookAndCorrect('ann@example.com', 'Ann@Example.com');
  const smtp = await startSmtpServer(0);
  const mail = mailDispatcher(t.database, smtp.port);
  try {
    expect(await mail.runOnce()).toBe(1);
    expect(smtp.received.map((m) => m.rcptTo)).toEqual([['ann@example.com']]);
    expect((await outboxOf(t.database, [orderId]))[0]).toMatchObject({ status: 'sent' });
  } finally {
    await mail.stop();
    await smtp.close();
  }
});
