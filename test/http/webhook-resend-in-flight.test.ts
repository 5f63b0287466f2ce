/**
 * Resending a delivery while an attempt of it is on the wire (review-hooks finding 6). The
 * resend cleared the lease, so the next poll sent it again beside the first attempt (three
 * resends, four overlapping requests), and the first attempt's outcome was fenced out of the
 * log. Now a delivery in flight keeps its lease and is sent again once, when its attempt has
 * ended; that attempt is recorded, and it neither settles nor gives up the delivery.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { as, createTestApp, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/** How long the receiver takes to answer the attempt a resend finds in flight. */
const SLOW_MS = 2500;

let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  t = await createTestApp({
    BOOKING_ENV: 'sandbox',
    WEBHOOK_DISPATCH: 'true',
    WEBHOOK_POLL_MS: '25',
    WEBHOOK_TIMEOUT_MS: '5000',
    // One retry: a failed second attempt gives up.
    WEBHOOK_RETRY_SCHEDULE_MS: '50',
  });
  receiver = await startReceiver();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

/** A shop with a hook on `path`, and its first delivery's id once the receiver has it. */
async function deliveryOnTheWire(
  path: string,
  requestsBefore = 1,
): Promise<{ shop: Shop; hookId: string; deliveryId: string }> {
  const shop = await openShop(t.app);
  const hook = await as(t.app, shop.seller, {
    method: 'POST',
    url: `/api/users/${shop.seller.id}/hooks`,
    payload: { eventName: 'order.create', url: receiver.url(path) },
  });
  expect(hook.statusCode, hook.body).toBe(201);
  const booked = await book(t.app, shop.seller, {
    customerName: 'Ann',
    items: [item(shop.experienceId)],
  });
  expect(booked.statusCode, booked.body).toBe(201);
  await receiver.waitFor((all) => to(path, all).length >= requestsBefore);
  const hookId = hook.json().id as string;
  const [delivery] = await deliveries(shop, hookId);
  return { shop, hookId, deliveryId: delivery!.id };
}

const to = (path: string, all = receiver.received) => all.filter((r) => r.path === path);

async function deliveries(shop: Shop, hookId: string) {
  const response = await as(t.app, shop.seller, {
    method: 'GET',
    url: `/api/users/${shop.seller.id}/hooks/${hookId}/deliveries`,
  });
  return response.json().data as {
    id: string;
    status: string;
    attempts: { attempt: number; statusCode: number | null }[];
  }[];
}

async function resend(shop: Shop, hookId: string, deliveryId: string) {
  const response = await as(t.app, shop.seller, {
    method: 'POST',
    url: `/api/users/${shop.seller.id}/hooks/${hookId}/deliveries/${deliveryId}/resend`,
  });
  expect(response.statusCode, response.body).toBe(202);
  expect(response.json().status).toBe('pending');
}

it('sends a delivery resent in flight once more after its attempt, never beside it', async () => {
  const path = '/in-flight';
  receiver.answer((r) =>
    r.path === path && to(path).length === 1 ? { status: 204, delayMs: SLOW_MS } : { status: 204 },
  );
  const { shop, hookId, deliveryId } = await deliveryOnTheWire(path);
  for (let i = 0; i < 3; i++) await resend(shop, hookId, deliveryId);
  // All three while the first attempt waits for its answer (else this proves nothing).
  expect(Date.now()).toBeLessThan(to(path)[0]!.at + SLOW_MS);
  await receiver.waitFor((all) => to(path, all).length >= 2, SLOW_MS + 5000);
  const [first, second] = to(path);
  // The second request started only once the first had been answered.
  expect(second!.at - first!.at).toBeGreaterThanOrEqual(SLOW_MS - 20);
  await expect
    .poll(async () => (await deliveries(shop, hookId))[0]?.status, { timeout: 3000 })
    .toBe('delivered');
  await new Promise((resolve) => setTimeout(resolve, 300));
  // Three resends during one attempt owe one more send, not three.
  expect(to(path)).toHaveLength(2);
  const [delivery] = await deliveries(shop, hookId);
  expect(delivery!.attempts).toMatchObject([
    { attempt: 1, statusCode: 204 },
    { attempt: 2, statusCode: 204 },
  ]);
});

it('a resend during the last attempt of a schedule starts a new one: the hook is not disabled', async () => {
  const path = '/last-attempt';
  // The first attempt fails at once, the retry (the schedule's last) fails slowly; then 204.
  receiver.answer((r) => {
    if (r.path !== path) return { status: 204 };
    const n = to(path).length;
    return n === 1
      ? { status: 500 }
      : n === 2
        ? { status: 500, delayMs: SLOW_MS }
        : { status: 204 };
  });
  const { shop, hookId, deliveryId } = await deliveryOnTheWire(path, 2);
  await resend(shop, hookId, deliveryId);
  expect(Date.now()).toBeLessThan(to(path)[1]!.at + SLOW_MS);
  await receiver.waitFor((all) => to(path, all).length >= 3, SLOW_MS + 5000);
  await expect
    .poll(async () => (await deliveries(shop, hookId))[0]?.status, { timeout: 3000 })
    .toBe('delivered');
  const [delivery] = await deliveries(shop, hookId);
  expect(delivery!.attempts).toMatchObject([
    { attempt: 1, statusCode: 500 },
    { attempt: 2, statusCode: 500 },
    { attempt: 3, statusCode: 204 },
  ]);
  const hook = await as(t.app, shop.seller, {
    method: 'GET',
    url: `/api/users/${shop.seller.id}/hooks/${hookId}`,
  });
  expect(hook.json().status).toBe('enabled');
  const notices = await t.database.db
    .selectFrom('outbox')
    .select('id')
    .where('kind', '=', 'hook_disabled')
    .where('hook_id', '=', hookId)
    .execute();
  expect(notices).toEqual([]);
});
