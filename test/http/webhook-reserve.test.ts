/**
 * The reserve of the dispatcher's slots lends a few beyond the first
 * (src/modules/hooks/delivery-shares.ts): six budgets whose receivers never answer fill the
 * 48 shared slots at their cap of 8, and every other budget ran one delivery at a time while
 * 15 reserve slots stayed idle. Now a budget holding no shared slot may have 4 reserve slots
 * while more than 8 stay free; the six stalling budgets get none of them, and the last 8
 * start first deliveries only, so a new tenant's delivery still starts at once.
 *
 * Every receiver but the new tenant's accepts and never answers, so what each budget holds
 * is what it was given, none of it freed (the requests would time out in 30 s).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { as, createTestApp, testConfig, type TestApp } from '../helpers/app.js';
import { book, item, openShop } from '../helpers/booking.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/** A server that accepts requests and never answers; how many it holds open now. */
async function startStall() {
  let open = 0;
  const server = http.createServer((_req, res) => {
    open += 1;
    res.on('close', () => (open -= 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    open: () => open,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
type Stall = Awaited<ReturnType<typeof startStall>>;

let t: TestApp;
let receiver: Receiver;
let dispatcher: FastifyInstance;
const stalls: Stall[] = [];
beforeAll(async () => {
  t = await createTestApp({ BOOKING_ENV: 'sandbox' });
  receiver = await startReceiver();
  dispatcher = await buildApp(
    testConfig({
      BOOKING_ENV: 'sandbox',
      WEBHOOK_DISPATCH: 'true',
      WEBHOOK_POLL_MS: '25',
      // The most allowed: no stalled delivery may time out (and free its slot) mid-test.
      WEBHOOK_TIMEOUT_MS: '60000',
      WEBHOOK_RETRY_SCHEDULE_MS: '600000',
    }),
    { database: t.database, logStream: new PassThrough().resume() },
  );
  await dispatcher.ready();
});
afterAll(async () => {
  for (const stall of stalls) await stall.close();
  await dispatcher.close();
  await t.close();
  await receiver.close();
});

/**
 * A seller with ten `*` hooks on two never-answering hosts of its own (its cap of 8 is
 * what binds) and two bookings: twenty deliveries or more due. What it holds open.
 */
async function stallingSeller(): Promise<() => number> {
  const shop = await openShop(t.app);
  const pair = [await startStall(), await startStall()];
  stalls.push(...pair);
  for (let i = 0; i < 10; i++) {
    const made = await as(t.app, shop.seller, {
      method: 'POST',
      url: `/api/users/${shop.seller.id}/hooks`,
      payload: { eventName: '*', url: `http://127.0.0.1:${pair[i % 2]!.port}/h${i}` },
    });
    expect(made.statusCode, made.body).toBe(201);
  }
  for (const day of ['2030-06-01', '2030-06-02']) {
    const booked = await book(t.app, shop.seller, {
      customerName: 'X',
      items: [item(shop.experienceId, day)],
    });
    expect(booked.statusCode, booked.body).toBe(201);
  }
  return () => pair[0]!.open() + pair[1]!.open();
}

const allOpen = () => stalls.reduce((n, s) => n + s.open(), 0);

/** Waits until `held` reaches `n`, then a few more polls, for any slot beyond it. */
async function settlesAt(held: () => number, n: number): Promise<void> {
  await vi.waitFor(() => expect(held()).toBeGreaterThanOrEqual(n), { timeout: 15_000 });
  await new Promise((resolve) => setTimeout(resolve, 400));
  expect(held()).toBe(n);
}

it('lends reserve slots to budgets holding no shared slot, never to the stalling six', async () => {
  const six: (() => number)[] = [];
  for (let s = 0; s < 6; s++) six.push(await stallingSeller());
  await settlesAt(allOpen, 48);
  expect(six.map((held) => held())).toEqual([8, 8, 8, 8, 8, 8]);

  // Two more budgets: 4 reserve slots each (one each before), 8 left free.
  const seventh = await stallingSeller();
  await settlesAt(seventh, 4);
  const eighth = await stallingSeller();
  await settlesAt(eighth, 4);
  expect(allOpen()).toBe(56);
  // Another: its first delivery only, from the 8 kept.
  const ninth = await stallingSeller();
  await settlesAt(ninth, 1);
  expect(six.map((held) => held())).toEqual([8, 8, 8, 8, 8, 8]);
  expect(seventh() + eighth()).toBe(8);

  // A new tenant's delivery starts at once, while every stalled request is held.
  const victim = await openShop(t.app);
  const path = `/victim-${victim.seller.id}`;
  const made = await as(t.app, victim.seller, {
    method: 'POST',
    url: `/api/users/${victim.seller.id}/hooks`,
    payload: { eventName: 'order.create', url: receiver.url(path) },
  });
  expect(made.statusCode, made.body).toBe(201);
  const booked = await book(t.app, victim.seller, {
    customerName: 'Vera',
    items: [item(victim.experienceId)],
  });
  expect(booked.statusCode, booked.body).toBe(201);
  await receiver.waitFor((all) => all.some((r) => r.path === path), 15_000);
  expect(allOpen()).toBe(57);
});
