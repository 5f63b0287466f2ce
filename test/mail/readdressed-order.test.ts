/**
 * A confirmation queued for an address the order no longer has (staff corrected a typo in
 * `customerEmail`) is not sent there: the booking code and itinerary must not reach the
 * mistyped address, a stranger's (review finding 4). It is skipped, not readdressed: a new
 * address would have to pass the relay caps as a new email would.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { as, createTestApp, type TestApp } from '../helpers/app.js';
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

it('does not send the confirmation to an address the order no longer has', async () => {
  const orderId = await bookAndCorrect('ann@exmaple.com', 'ann@example.com');
  const smtp = await startSmtpServer(0);
  const logger = recordingLogger();
  const mail = mailDispatcher(t.database, smtp.port, { logger });
  try {
    expect(await mail.runOnce()).toBe(0);
    expect(smtp.received).toHaveLength(0);
    expect(await outboxOf(t.database, [orderId])).toMatchObject([
      { kind: 'order_confirmation', recipient: 'ann@exmaple.com', status: 'skipped' },
    ]);
    expect(logger.lines).toMatchObject([
      { level: 'info', message: "email skipped: the order's customerEmail changed" },
    ]);
    expect(JSON.stringify(logger.lines)).not.toContain('ann@');
  } finally {
    await mail.stop();
    await smtp.close();
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
