/**
 * The dispatcher's loop between polls (review-hooks findings 4 and 1):
 *
 * - When its caps, not its room, held deliveries back, it slept a whole poll interval: one
 *   receiver answering at once got at most its host's cap (4) a poll, about 8 a second at
 *   the default 500 ms (300 deliveries took 38.9 s). It now claims again as soon as a
 *   delivery ends. Shown without timing: with a poll interval of a minute, a backlog of
 *   300 arrives long before a second timed poll could come. The rate itself is
 *   bench/webhook-fairness.ts's to measure.
 * - A fan-out that fails (here a trigger refuses to mark events fanned out) no longer
 *   stops the claim: deliveries already due go out all the same.
 */
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { deliveriesRepository } from '../../src/modules/hooks/deliveries.repository.js';
import { as, createTestApp, testConfig, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  // Bookings are made with no dispatcher; each test starts one over them.
  t = await createTestApp({ BOOKING_ENV: 'sandbox' });
  receiver = await startReceiver();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

/** A dispatcher over the test's database, polling every `pollMs`, logging to `logs`. */
async function dispatcher(pollMs: number, logs: string[] = []) {
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => logs.push(...chunk.toString().split('\n')));
  const app = await buildApp(
    testConfig({
      BOOKING_ENV: 'sandbox',
      WEBHOOK_DISPATCH: 'true',
      WEBHOOK_POLL_MS: String(pollMs),
    }),
    { database: t.database, logStream },
  );
  await app.ready();
  return app;
}

async function hook(shop: Shop, eventName: string, path: string): Promise<void> {
  const made = await as(t.app, shop.seller, {
    method: 'POST',
    url: `/api/users/${shop.seller.id}/hooks`,
    payload: { eventName, url: receiver.url(path) },
  });
  expect(made.statusCode, made.body).toBe(201);
}

it('feeds a receiver that answers at once as fast as it answers, not its cap per poll', async () => {
  const shop = await openShop(t.app, { group: { outingMax: 1000 } });
  await hook(shop, '*', '/all');
  // 150 bookings: an order.create and an event.update each, 300 deliveries to one host.
  for (let i = 0; i < 150; i++) {
    const booked = await book(t.app, shop.seller, {
      customerName: `Guest ${i}`,
      items: [item(shop.experienceId)],
    });
    expect(booked.statusCode, booked.body).toBe(201);
  }
  // One timed poll a minute: the first at start, the next after this test's deadline.
  const app = await dispatcher(60_000);
  try {
    const all = await receiver.waitFor(
      (all) => all.filter((r) => r.path === '/all').length >= 300,
      50_000,
    );
    const mine = all.filter((r) => r.path === '/all');
    expect(new Set(mine.map((r) => r.headers['webhook-id'])).size).toBe(300);
    const names = mine.map((r) => r.json.eventName);
    expect(names.filter((n) => n === 'order.create')).toHaveLength(150);
    expect(names.filter((n) => n === 'event.update')).toHaveLength(150);
  } finally {
    await app.close();
  }
}, 180_000);

it('claims what is due when the fan-out fails', async () => {
  const shop = await openShop(t.app);
  await hook(shop, 'order.create', '/due');
  const first = await book(t.app, shop.seller, {
    customerName: 'Fanned',
    items: [item(shop.experienceId)],
  });
  expect(first.statusCode, first.body).toBe(201);
  // Its delivery exists, due; what comes next cannot be fanned out.
  while ((await deliveriesRepository(t.database.db).fanOut(200)) > 0);
  await sql`create or replace function refuse_fan_out() returns trigger language plpgsql as $$
    begin raise exception 'fan-out unavailable'; end $$`.execute(t.database.db);
  await sql`create trigger refuse_fan_out before update of fanned_out on domain_events
    for each row execute function refuse_fan_out()`.execute(t.database.db);
  const logs: string[] = [];
  const app = await dispatcher(25, logs);
  try {
    const second = await book(t.app, shop.seller, {
      customerName: 'Stuck',
      items: [item(shop.experienceId, '2030-06-02')],
    });
    expect(second.statusCode, second.body).toBe(201);
    await receiver.waitFor((all) => all.some((r) => r.path === '/due'), 10_000);
    expect(receiver.received.filter((r) => r.path === '/due').map((r) => r.json.data.id)).toEqual([
      first.json().id,
    ]);
    await vi.waitFor(() => expect(logs.join('\n')).toMatch(/fan-out unavailable/));
    expect(logs.join('\n')).toMatch(/"webhook fan-out failed"/);
  } finally {
    await app.close();
    await sql`drop trigger refuse_fan_out on domain_events`.execute(t.database.db);
  }
});
