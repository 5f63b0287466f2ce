/**
 * A check-in reaches webhooks (issue 29): the seller's `order.update` hook receives it,
 * signed, with the order showing the guest arrived and the audit of its status, delivered by
 * the real dispatcher to a receiver on loopback; the undo follows the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp } from '../helpers/app.js';
import { book, item, openShop } from '../helpers/booking.js';
import { startReceiver, verify, type Receiver } from '../helpers/webhook-receiver.js';

let t: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  t = await createTestApp({
    BOOKING_ENV: 'sandbox',
    WEBHOOK_DISPATCH: 'true',
    WEBHOOK_POLL_MS: '25',
    WEBHOOK_TIMEOUT_MS: '400',
  });
  receiver = await startReceiver();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

describe('check-in webhooks', () => {
  it('delivers order.update for a check-in and for its undo, with the guest status audited', async () => {
    const shop = await openShop(t.app, { timezone: 'UTC' });
    const hook = await as(t.app, shop.seller, {
      method: 'POST',
      url: `/api/users/${shop.seller.id}/hooks`,
      payload: { eventName: 'order.update', url: receiver.url('/dock') },
    });
    expect(hook.statusCode).toBe(201);
    const today = new Date().toISOString().slice(0, 10);
    const booked = await book(t.app, shop.seller, {
      customerName: 'Pat Guest',
      items: [item(shop.experienceId, today, 900, 2)],
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const order = booked.json();
    const scan = await as(t.app, shop.seller, {
      method: 'POST',
      url: '/api/checkins',
      payload: { code: order.items[0].guests[1].ticketCode },
    });
    expect(scan.statusCode).toBe(201);
    const mine = (all: { path: string }[]) => all.filter((r) => r.path === '/dock');
    const [checkedIn] = mine(await receiver.waitFor((all) => mine(all).length >= 1, 5000));
    const body = verify(hook.json().secret, checkedIn as never) as {
      eventName: string;
      data: { id: string; items: { guestStatus: string; guests: { guestStatus: string }[] }[] };
      audit: Record<string, unknown>;
    };
    expect(body.eventName).toBe('order.update');
    expect(body.data.id).toBe(order.id);
    expect(body.data.items[0]!.guests.map((g) => g.guestStatus)).toEqual(['pending', 'arrived']);
    expect(JSON.stringify(body.audit)).toContain('arrived');

    await as(t.app, shop.seller, {
      method: 'DELETE',
      url: `/api/checkins/${scan.json().checkins[0].id}`,
    });
    const all = mine(await receiver.waitFor((got) => mine(got).length >= 2, 5000));
    const undone = verify(hook.json().secret, all[1] as never) as typeof body;
    expect(undone.data.items[0]!.guests.map((g) => g.guestStatus)).toEqual(['pending', 'pending']);
  });
});
