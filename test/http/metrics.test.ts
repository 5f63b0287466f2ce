/**
 * GET /metrics (Prometheus text format) through HTTP: who may scrape (this host directly,
 * or the METRICS_TOKEN), and each metric operators rely on, moved by what it counts:
 * request durations by route and status, bookings by result, seats taken and given back
 * (only for committed work: a booking refused half-way counts no seat), emails waiting,
 * webhook deliveries and their lag, holds expired, the database pool, and the process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, expectProblem, signUp, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { delegate } from '../helpers/guides.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { eventually } from '../helpers/eventually.js';

let t: TestApp;
let shop: Shop;
let receiver: Receiver;
beforeAll(async () => {
  t = await createTestApp({
    BOOKING_ENV: 'sandbox',
    WEBHOOK_DISPATCH: 'true',
    WEBHOOK_POLL_MS: '25',
    WEBHOOK_RETRY_SCHEDULE_MS: '50',
    ORDER_HOLD_SWEEP: 'true',
    ORDER_HOLD_MS: '1000',
    ORDER_HOLD_SWEEP_MS: '50',
  });
  shop = await openShop(t.app, { group: { outingMax: 4 } });
  receiver = await startReceiver();
  receiver.answer(() => ({ status: 204 }));
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const scrape = async (headers: Record<string, string> = {}) => {
  const response = await t.app.inject({ method: 'GET', url: '/metrics', headers });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toContain('text/plain');
  return response.body;
};

/** The value of one sample (`name{labels}`), summed over samples matching the labels. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  // A labelled counter never incremented has no sample yet: it counts 0.
  let total = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const has = Object.entries(labels).every(([k, v]) => match[2]?.includes(`${k}="${v}"`));
    if (!has) continue;
    total += Number(match[3]);
  }
  return total;
}

const value = async (name: string, labels: Record<string, string> = {}) =>
  sample(await scrape(), name, labels);

describe('who may scrape', () => {
  it('is this host talking directly, not a client forwarded by a balancer nor another host', async () => {
    await scrape();
    for (const headers of [
      { 'x-forwarded-for': '203.0.113.9' },
      { forwarded: 'for=203.0.113.9' },
    ]) {
      const refused = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expectProblem(refused, 403, 'forbidden');
    }
    const remote = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '10.1.2.3',
    });
    expectProblem(remote, 403, 'forbidden');
  });

  it('needs METRICS_TOKEN behind a proxy: a loopback peer may be the proxy, forwarding anyone', async () => {
    const proxied = await createTestApp({ TRUST_PROXY: '127.0.0.1' });
    try {
      // A proxy on this host that adds no X-Forwarded-For (nginx's plain proxy_pass, a
      // tunnel) looks like a local client: with TRUST_PROXY set, none is taken for one.
      const refused = await proxied.app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '127.0.0.1',
      });
      expectProblem(refused, 403, 'forbidden');
      expect(refused.json().detail).toContain('METRICS_TOKEN');
    } finally {
      await proxied.close();
    }
  });

  it('is anyone with METRICS_TOKEN as a Bearer token, once one is set', async () => {
    const token = 'a-metrics-token-of-some-length';
    const guarded = await createTestApp({ METRICS_TOKEN: token });
    try {
      const get = (headers: Record<string, string>, remoteAddress = '10.1.2.3') =>
        guarded.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress });
      expect((await get({ authorization: `Bearer ${token}` })).statusCode).toBe(200);
      expectProblem(await get({}), 403, 'forbidden');
      expectProblem(await get({}, '127.0.0.1'), 403, 'forbidden');
      expectProblem(await get({ authorization: `Bearer ${token}x` }), 403, 'forbidden');
    } finally {
      await guarded.close();
    }
  });
});

describe('the metrics', () => {
  it('time every request by route pattern and status', async () => {
    await t.app.inject({ method: 'GET', url: `/api/experiences/${shop.experienceId}` });
    const text = await scrape();
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        route: '/api/experiences/:id',
        status: '200',
        method: 'GET',
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('count bookings by result, and seats taken and given back once committed', async () => {
    const customer = await signUp(t.app);
    const booked = () => value('booking_orders_total', { result: 'booked' });
    const full = () => value('booking_orders_total', { result: 'capacity_exceeded' });
    const taken = () => value('booking_seats_taken_total');
    const released = () => value('booking_seats_released_total');
    const before = { booked: await booked(), full: await full(), taken: await taken() };
    const released0 = await released();

    const order = await book(t.app, customer, {
      items: [item(shop.experienceId, '2031-01-05', 900, 3)],
    });
    expect(order.statusCode).toBe(201);
    expect(await booked()).toBe(before.booked + 1);
    expect(await taken()).toBe(before.taken + 3);

    // Two items: the first fits, the second does not; the transaction takes nothing.
    const refused = await book(t.app, customer, {
      items: [
        item(shop.experienceId, '2031-01-06', 900, 2),
        item(shop.experienceId, '2031-01-05', 900, 2),
      ],
    });
    expect(refused.statusCode).toBe(409);
    expect(await full()).toBe(before.full + 1);
    expect(await taken()).toBe(before.taken + 3);

    await as(t.app, customer, { method: 'POST', url: `/api/orders/${order.json().id}/cancel` });
    expect(await released()).toBe(released0 + 3);
  });

  it('show the emails waiting, and how long the oldest has waited', async () => {
    // No SMTP relay in tests: confirmations wait in the outbox.
    const customer = await signUp(t.app);
    await book(t.app, customer, { items: [item(shop.experienceId, '2031-01-07', 900, 1)] });
    const text = await scrape();
    expect(sample(text, 'outbox_pending')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'outbox_oldest_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('count webhook deliveries by result, with their lag', async () => {
    const created = await as(t.app, shop.seller, {
      method: 'POST',
      url: `/api/users/${shop.seller.id}/hooks`,
      payload: { eventName: 'order.create', url: receiver.url('/metrics-hook') },
    });
    expect(created.statusCode, created.body).toBe(201);
    const delivered = await value('webhook_deliveries_total', { result: 'delivered' });
    const customer = await signUp(t.app);
    await book(t.app, customer, { items: [item(shop.experienceId, '2031-01-08', 900, 1)] });
    await eventually(async () => {
      expect(await value('webhook_deliveries_total', { result: 'delivered' })).toBe(delivered + 1);
    });
    expect(await value('webhook_delivery_lag_seconds_count')).toBeGreaterThanOrEqual(1);
  });

  it('count holds the sweeper released', async () => {
    const desk = await delegate(t.app, shop.seller, ['ROLE_RESERVATION'], 'Desk');
    const before = await value('booking_holds_expired_total');
    const held = await book(t.app, desk, {
      customerName: 'Held',
      items: [{ ...item(shop.experienceId, '2031-01-09', 900, 1), status: 103 }],
    });
    expect(held.statusCode).toBe(201);
    await eventually(async () => {
      expect(await value('booking_holds_expired_total')).toBe(before + 1);
    });
  });

  it('show the database pool and the process', async () => {
    const text = await scrape();
    expect(sample(text, 'db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'db_pool_waiting')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });
});
