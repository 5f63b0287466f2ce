/**
 * A dispatcher that dies mid-delivery (it claimed deliveries and never recorded an outcome):
 * when its lease runs out another dispatcher sends them, once each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { deliveriesRepository } from '../../src/modules/hooks/deliveries.repository.js';
import { as, createTestApp, testConfig, type TestApp } from '../helpers/app.js';
import { book, item, openShop } from '../helpers/booking.js';
import { startReceiver, verify, type Receiver } from '../helpers/webhook-receiver.js';

let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  t = await createTestApp({ BOOKING_ENV: 'sandbox' });
  receiver = await startReceiver();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

describe('a dispatcher that died holding deliveries', () => {
  it('leaves them to another once its lease runs out; each is delivered once', async () => {
    const shop = await openShop(t.app);
    const hook = await as(t.app, shop.seller, {
      method: 'POST',
      url: `/api/users/${shop.seller.id}/hooks`,
      payload: { eventName: 'order.create', url: receiver.url('/recovery') },
    });
    for (let i = 0; i < 3; i++) {
      const booked = await book(t.app, shop.seller, {
        customerName: `Guest ${i}`,
        items: [item(shop.experienceId)],
      });
      expect(booked.statusCode).toBe(201);
    }
    // The dead dispatcher: fanned the events out, claimed the deliveries for 200 ms, and
    // then nothing (killed before sending or recording).
    const repo = deliveriesRepository(t.database.db);
    expect(await repo.fanOut(100)).toBeGreaterThanOrEqual(3);
    const claimed = await repo.claimDue(10, 200);
    expect(claimed).toHaveLength(3);

    const survivor = await buildApp(
      testConfig({ BOOKING_ENV: 'sandbox', WEBHOOK_DISPATCH: 'true', WEBHOOK_POLL_MS: '25' }),
      { database: t.database },
    );
    await survivor.ready();
    try {
      await receiver.waitFor((all) => all.length >= 3, 5000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.received).toHaveLength(3);
      const secret = hook.json().secret as string;
      for (const r of receiver.received) verify(secret, r);
      const log = await as(t.app, shop.seller, {
        method: 'GET',
        url: `/api/users/${shop.seller.id}/hooks/${hook.json().id}/deliveries`,
      });
      for (const delivery of log.json().data) {
        expect(delivery.status).toBe('delivered');
        // The lost claim counted as an attempt and left no record; the survivor's is the 2nd.
        expect(delivery.attempts).toMatchObject([{ attempt: 2, statusCode: 204 }]);
      }
    } finally {
      await survivor.close();
    }
  });
});
