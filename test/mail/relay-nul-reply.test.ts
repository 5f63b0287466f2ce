/**
 * A relay whose reply holds a NUL byte (review-hooks finding 2, for email). The reply is
 * stored as the message's `last_error`, and a `text` column refuses NUL: the outcome could not
 * be recorded, so the lease handed the message back and it was tried again every lease, its
 * retry schedule and giving up never applied. Now the stored text has each NUL replaced
 * (src/db/storable-text.ts), as a webhook receiver's answer has.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { book, item, openShop } from '../helpers/booking.js';
import { dbNow, mailDispatcher, outboxOf, recordingLogger, scriptedRelay } from './mail-flow.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

it('records a failed attempt whose reply holds a NUL, and schedules its retry', async () => {
  const shop = await openShop(t.app);
  const booked = await book(t.app, shop.seller, {
    customerName: 'Ann',
    customerEmail: 'ann@example.com',
    items: [item(shop.experienceId)],
  });
  expect(booked.statusCode, booked.body).toBe(201);
  const relay = await scriptedRelay({ rcpt: '451 4.3.0 busy\u0000 try later' });
  const logger = recordingLogger();
  const mail = mailDispatcher(t.database, relay.port, { logger });
  try {
    await mail.runOnce();
    const [row] = await outboxOf(t.database, [booked.json().id]);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, locked_until: null });
    expect(row!.next_attempt_at.getTime()).toBeGreaterThan((await dbNow(t.database)).getTime());
    expect(row!.last_error).toContain('451 4.3.0 busy\ufffd try later');
    expect(logger.lines.map((l) => l.message)).not.toContain('email outcome not recorded');
  } finally {
    await mail.stop();
    await relay.close();
  }
});
