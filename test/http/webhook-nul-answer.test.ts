/**
 * A receiver whose answer holds NUL bytes (review-hooks finding 2). The first KiB of an
 * answer is stored with its attempt, and a `text` column refuses NUL: the attempt could not
 * be recorded, so the lease handed the delivery back for ever, sent again every lease, never
 * marked delivered, never given up, with nothing in its log. Now the stored text has each NUL
 * replaced (src/db/storable-text.ts), and the delivery goes on its way.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { as, createTestApp, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';

let t: TestApp;
let server: http.Server;
/** Requests received, by path. */
const hits = new Map<string, number>();
/** What each path answers. */
const answers: Record<string, { status: number; body: string }> = {
  '/ok': { status: 200, body: 'ok\u0000 thanks\u0000' },
  '/down': { status: 500, body: 'down\u0000' },
};

beforeAll(async () => {
  t = await createTestApp({
    BOOKING_ENV: 'sandbox',
    WEBHOOK_DISPATCH: 'true',
    WEBHOOK_POLL_MS: '25',
    // The lease is 2 × 300 + 5,000 ms: a delivery handed back by it would come again after
    // 5.6 s, long after these tests look.
    WEBHOOK_TIMEOUT_MS: '300',
    WEBHOOK_RETRY_SCHEDULE_MS: '50,50',
  });
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '/';
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const answer = answers[path] ?? { status: 404, body: '' };
      res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => server.close(resolve));
});

async function hookAndBooking(path: string): Promise<{ shop: Shop; hookId: string }> {
  const shop = await openShop(t.app);
  const { port } = server.address() as AddressInfo;
  const hook = await as(t.app, shop.seller, {
    method: 'POST',
    url: `/api/users/${shop.seller.id}/hooks`,
    payload: { eventName: 'order.create', url: `http://127.0.0.1:${port}${path}` },
  });
  expect(hook.statusCode, hook.body).toBe(201);
  const booked = await book(t.app, shop.seller, {
    customerName: 'Ann',
    items: [item(shop.experienceId)],
  });
  expect(booked.statusCode, booked.body).toBe(201);
  return { shop, hookId: hook.json().id };
}

async function deliveryLog(shop: Shop, hookId: string) {
  const response = await as(t.app, shop.seller, {
    method: 'GET',
    url: `/api/users/${shop.seller.id}/hooks/${hookId}/deliveries`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as {
    status: string;
    attempts: { attempt: number; statusCode: number | null; response: string | null }[];
  }[];
}

it('a 2xx answer with NUL bytes is delivered after one request, the answer stored cleaned', async () => {
  const { shop, hookId } = await hookAndBooking('/ok');
  await expect
    .poll(async () => (await deliveryLog(shop, hookId))[0]?.status, { timeout: 3000 })
    .toBe('delivered');
  const [delivery] = await deliveryLog(shop, hookId);
  expect(delivery!.attempts).toMatchObject([
    { attempt: 1, statusCode: 200, response: 'ok\ufffd thanks\ufffd' },
  ]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(hits.get('/ok')).toBe(1);
  expect(t.logs.filter((l) => l.includes('webhook not recorded'))).toEqual([]);
});

it('a failing answer with NUL bytes is retried on the schedule and given up', async () => {
  const { shop, hookId } = await hookAndBooking('/down');
  await expect
    .poll(async () => (await deliveryLog(shop, hookId))[0]?.status, { timeout: 3000 })
    .toBe('failed');
  const [delivery] = await deliveryLog(shop, hookId);
  // The first attempt and the two retries of the schedule, each recorded.
  expect(delivery!.attempts).toMatchObject(
    [1, 2, 3].map((attempt) => ({ attempt, statusCode: 500, response: 'down\ufffd' })),
  );
  expect(hits.get('/down')).toBe(3);
  const hook = await as(t.app, shop.seller, {
    method: 'GET',
    url: `/api/users/${shop.seller.id}/hooks/${hookId}`,
  });
  expect(hook.json().status).toBe('disabled');
  expect(t.logs.filter((l) => l.includes('webhook not recorded'))).toEqual([]);
});
