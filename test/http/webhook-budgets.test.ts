/**
 * Delivery budgets under a reseller's stalling receivers (review-octo findings 4 and 5):
 * twenty OCTo hooks of a reseller on a server that accepts and never answers share the
 * reseller's own budget, not the seller's, so the seller's webhooks arrive on time; and
 * while that backlog waits for slots, polls claim nothing they cannot start: no delivery is
 * claimed and handed straight back.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { as, createTestApp, type TestApp } from '../helpers/app.js';
import { octo, openOctoShop, today, type OctoShop } from '../helpers/octo.js';
import { countStatements } from '../helpers/statement-counter.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

let t: TestApp;
let shop: OctoShop;
let receiver: Receiver;
let stall: http.Server;
let stalled = 0;
beforeAll(async () => {
  t = await createTestApp({
    BOOKING_ENV: 'sandbox',
    WEBHOOK_DISPATCH: 'true',
    WEBHOOK_POLL_MS: '25',
    WEBHOOK_TIMEOUT_MS: '1000',
    WEBHOOK_RETRY_SCHEDULE_MS: '60000',
  });
  shop = await openOctoShop(t.app);
  receiver = await startReceiver();
  stall = http.createServer(() => {
    stalled++;
  });
  await new Promise<void>((resolve) => stall.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  stall.closeAllConnections();
  stall.close();
  await t.close();
  await receiver.close();
});

const sent: number[] = [];

/** `n` bookings on `n` days from `firstDay`: each a seat change every reseller hook hears. */
async function bookSeats(n: number, firstDay: number, times: number[] = []): Promise<void> {
  for (let i = 0; i < n; i++) {
    const [departure] = (
      await octo(t.app, shop.seller.apiKey, 'POST', '/availability', {
        productId: shop.tour,
        optionId: 'DEFAULT',
        localDate: today(firstDay + i),
      })
    ).json();
    const booked = await octo(t.app, shop.seller.apiKey, 'POST', '/bookings', {
      productId: shop.tour,
      optionId: 'DEFAULT',
      availabilityId: departure.id,
      unitItems: [{ unitId: shop.adult }],
    });
    expect(booked.statusCode, booked.body).toBe(200);
    times.push(Date.now());
  }
}

it('a reseller’s stalling hooks use the reseller’s budget, not its seller’s', async () => {
  const mine = await as(t.app, shop.seller, {
    method: 'POST',
    url: `/api/users/${shop.seller.id}/hooks`,
    payload: { eventName: 'order.create', url: receiver.url('/seller') },
  });
  expect(mine.statusCode, mine.body).toBe(201);
  const { port } = stall.address() as AddressInfo;
  for (let i = 0; i < 20; i++) {
    // Two hosts: enough host slots (4 each) to fill an owner's budget (8).
    const host = i % 2 ? '127.0.0.1' : 'localhost';
    const made = await octo(t.app, shop.reseller.apiKey, 'POST', '/webhooks', {
      url: `http://${host}:${port}/h${i}`,
      event: 'availability_update',
    });
    expect(made.statusCode, made.body).toBe(200);
  }
  await bookSeats(4, 4, sent);
  await receiver.waitFor((all) => all.filter((r) => r.path === '/seller').length >= 4, 20_000);
  const delays = receiver.received
    .filter((r) => r.path === '/seller')
    .map((r, i) => r.at - sent[i]!);
  // Behind the reseller's backlog (eight at a time, a second each), the last took 8 s.
  expect(Math.max(...delays), String(delays)).toBeLessThan(2000);
  expect(stalled).toBeGreaterThan(0);
});

it('claims nothing a full budget or host cannot start: no claim is handed back', async () => {
  // A fresh backlog for the reseller's hooks: eighty deliveries, eight at a time.
  await bookSeats(4, 10);
  const statements = await countStatements(() => new Promise((r) => setTimeout(r, 3000)));
  const handedBack = statements.filter((q) =>
    /update "webhook_deliveries" set "attempts" = "attempts" - /.test(q),
  );
  // The reseller's backlog is still waiting for its slots meanwhile.
  const waiting = await t.database.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', '=', 'pending')
    .where('attempts', '=', 0)
    .executeTakeFirstOrThrow();
  expect(Number(waiting.n)).toBeGreaterThan(0);
  expect(handedBack).toEqual([]);
  // Each poll a fan-out and a read (polls every 25 ms); it was 2,600 with the give-backs.
  expect(statements.length).toBeLessThan(1200);
});
