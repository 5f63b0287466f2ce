/**
 * Webhooks benchmark (issue 12), one run, one database:
 *
 * 1. What storing domain events costs a booking: bookings/s through two servers on the same
 *    database, one storing events (as shipped) and one not (`storeDomainEvents: false`, the
 *    baseline: the confirmation email is still queued), in alternating rounds.
 * 2. Deliveries per second: a backlog of events for a `*` hook, then one dispatcher started
 *    and timed until a local receiver has every delivery.
 *
 *   npm run bench:webhooks                      # embedded database
 *   BENCH_DATABASE_URL=postgres://... npm run bench:webhooks
 *
 * Options (environment): BOOKINGS (per round, default 300), ROUNDS (default 3),
 * CONCURRENCY (default 8), BACKLOG (bookings behind the delivery backlog, default 1000).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, openAppDatabase } from '../src/app.js';
import { loadConfig } from '../src/config.js';

const BOOKINGS = Number(process.env.BOOKINGS ?? 300);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const BACKLOG = Number(process.env.BACKLOG ?? 1000);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-webhooks-'));
const env = {
  DATA_DIR: dir,
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  MIGRATE_ON_START: 'true',
  BOOKING_ENV: 'sandbox',
  BOOKING_SECRET: 'x'.repeat(40),
  LOG_LEVEL: 'silent',
  RATE_LIMIT_MAX: '0',
  SIGNUPS_PER_ADDRESS: '0',
  AUTH_FAILURES_PER_ADDRESS: '0',
  WEBHOOK_DISPATCH: 'false',
  WEBHOOK_POLL_MS: '20',
};
const database = await openAppDatabase(loadConfig(env));

async function serve(storeDomainEvents: boolean, extra: Record<string, string> = {}) {
  const app = await buildApp(loadConfig({ ...env, ...extra }), { database, storeDomainEvents });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
}

async function call<T>(base: string, method: string, url: string, key?: string, body?: unknown) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(key ? { 'x-api-key': key } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status >= 300)
    throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const withEvents = await serve(true);
const baseline = await serve(false);

const seller = await call<{ id: string; apiKey: string }>(
  withEvents.base,
  'POST',
  '/api/users',
  undefined,
  {
    name: 'Bench Seller',
    email: `seller.${Date.now()}@example.com`,
    password: 'bench password 1',
    roles: ['ROLE_SELLER'],
  },
);
const experience = await call<{ id: string }>(
  withEvents.base,
  'POST',
  '/api/experiences',
  seller.apiKey,
  {
    name: 'Bench Kayak',
    price: 20,
    priceType: 'person',
    currency: 'EUR',
    duration: 60,
    schedules: [
      {
        type: 'available',
        repeat: 'weekly',
        days: [0, 1, 2, 3, 4, 5, 6],
        times: [900, 1100, 1300, 1500],
      },
    ],
  },
);

let day = 0;
/** A booking on its own departure (no seat contention: what is measured is the writing). */
function nextBody() {
  const date = new Date(Date.UTC(2031, 0, 1) + Math.floor(day / 4) * 86_400_000);
  const time = [900, 1100, 1300, 1500][day % 4]!;
  day += 1;
  return {
    customerName: 'Bench Customer',
    customerEmail: 'customer@example.com',
    items: [
      {
        experience: { id: experience.id },
        arrival: date.toISOString().slice(0, 10),
        arrivalTime: time,
        quantity: 1,
      },
    ],
  };
}

async function bookMany(base: string, count: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        next += 1;
        await call(base, 'POST', '/api/orders', seller.apiKey, nextBody());
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

// Warm both paths, then alternate rounds so drift hits both alike.
await bookMany(withEvents.base, 50);
await bookMany(baseline.base, 50);
const rates = { withEvents: [] as number[], baseline: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  rates.baseline.push(await bookMany(baseline.base, BOOKINGS));
  rates.withEvents.push(await bookMany(withEvents.base, BOOKINGS));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// Deliveries: a receiver, a `*` hook, a backlog, then one dispatcher against it.
let received = 0;
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received += 1;
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
await call(withEvents.base, 'POST', `/api/users/${seller.id}/hooks`, seller.apiKey, {
  eventName: '*',
  url: receiverUrl,
});
await bookMany(withEvents.base, BACKLOG);
const expected = BACKLOG * 2; // order.create and event.update per booking
const dispatcher: { app: FastifyInstance } = await serve(true, {
  WEBHOOK_DISPATCH: 'true',
  WEBHOOK_CONCURRENCY_PER_HOST: '16',
});
const started = performance.now();
while (received < expected) {
  if (performance.now() - started > 120_000)
    throw new Error(`only ${received} of ${expected} delivered`);
  await new Promise((resolve) => setTimeout(resolve, 10));
}
const seconds = (performance.now() - started) / 1000;

console.log(
  JSON.stringify(
    {
      database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'embedded',
      concurrency: CONCURRENCY,
      bookingsPerRound: BOOKINGS,
      bookingsPerSecond: {
        withoutStoredEvents: rates.baseline.map(Math.round),
        withStoredEvents: rates.withEvents.map(Math.round),
        medianRatio: Number((median(rates.withEvents) / median(rates.baseline)).toFixed(3)),
      },
      deliveries: {
        count: expected,
        seconds: Number(seconds.toFixed(2)),
        perSecond: Math.round(expected / seconds),
      },
    },
    null,
    2,
  ),
);
await dispatcher.app.close();
await withEvents.app.close();
await baseline.app.close();
receiver.close();
await database.close();
