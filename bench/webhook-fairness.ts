/**
 * Webhook dispatch under load, one run, one database (review-hooks findings 3 and 4):
 *
 * 1. Pace: a backlog of PACE_BOOKINGS bookings (two deliveries each) for one `*` hook on a
 *    receiver that answers at once, then one dispatcher with the shipped defaults (poll
 *    500 ms, 4 requests per host) timed until the receiver has every delivery. Waiting a
 *    whole poll whenever a cap held work back gave about 8 a second.
 * 2. Fairness: eight sellers, each with ten `*` hooks on two ports that accept and never
 *    answer and a few bookings, fill the slots of a dispatcher (`WEBHOOK_TIMEOUT_MS`
 *    STALL_TIMEOUT_MS, poll 25 ms); then another seller books, and the time until its
 *    receiver has the delivery is measured, against the same with no stalling sellers.
 *
 *   npx tsx bench/webhook-fairness.ts                      # embedded database
 *   BENCH_DATABASE_URL=postgres://... npx tsx bench/webhook-fairness.ts
 *
 * Options (environment): PACE_BOOKINGS (default 150), STALL_TIMEOUT_MS (default 2000),
 * STALLING_SELLERS (default 8).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, openAppDatabase } from '../src/app.js';
import { loadConfig } from '../src/config.js';

const PACE_BOOKINGS = Number(process.env.PACE_BOOKINGS ?? 150);
const STALL_TIMEOUT_MS = Number(process.env.STALL_TIMEOUT_MS ?? 2000);
const STALLING_SELLERS = Number(process.env.STALLING_SELLERS ?? 8);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-webhook-fairness-'));
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
};
const database = await openAppDatabase(loadConfig(env));

async function serve(extra: Record<string, string> = {}) {
  const app = await buildApp(loadConfig({ ...env, ...extra }), { database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}
const api = await serve();

async function call<T>(method: string, url: string, key?: string, body?: unknown): Promise<T> {
  const response = await fetch(`${api.base}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status >= 300)
    throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

let sellers = 0;
/** A seller and an experience with room for every booking of the run. */
async function openShop() {
  const seller = await call<{ id: string; apiKey: string }>('POST', '/api/users', undefined, {
    name: 'Bench Seller',
    email: `seller.${Date.now()}.${++sellers}@example.com`,
    password: 'bench password 1',
    roles: ['ROLE_SELLER'],
  });
  const experience = await call<{ id: string }>('POST', '/api/experiences', seller.apiKey, {
    name: 'Bench Kayak',
    price: 20,
    priceType: 'person',
    currency: 'EUR',
    duration: 60,
    group: { outingMax: 10_000 },
    schedules: [{ type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: [900] }],
  });
  const book = (arrival = '2031-01-01') =>
    call('POST', '/api/orders', seller.apiKey, {
      customerName: 'Bench Customer',
      items: [{ experience: { id: experience.id }, arrival, arrivalTime: 900, quantity: 1 }],
    });
  const hook = (eventName: string, url: string) =>
    call('POST', `/api/users/${seller.id}/hooks`, seller.apiKey, { eventName, url });
  return { book, hook };
}

/** A local server: `answer` false accepts requests and never answers them. */
async function listen(answer: boolean) {
  const arrived: { path: string; at: number }[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrived.push({ path: req.url ?? '/', at: performance.now() });
      if (answer) res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = (p: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${p}`;
  const close = () => {
    server.closeAllConnections();
    server.close();
  };
  return { arrived, url, close };
}

async function until(what: () => boolean, timeoutMs: number, failure: string): Promise<void> {
  const started = performance.now();
  while (!what()) {
    if (performance.now() - started > timeoutMs) throw new Error(failure);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Part 1: how fast one receiver answering at once is fed, the defaults otherwise. */
async function pace() {
  const receiver = await listen(true);
  const shop = await openShop();
  await shop.hook('*', receiver.url('/pace'));
  for (let i = 0; i < PACE_BOOKINGS; i++) await shop.book();
  const expected = PACE_BOOKINGS * 2; // order.create and event.update each
  const dispatcher: { app: FastifyInstance } = await serve({ WEBHOOK_DISPATCH: 'true' });
  const started = performance.now();
  await until(() => receiver.arrived.length >= expected, 300_000, 'pace: not all delivered');
  const seconds = (performance.now() - started) / 1000;
  await dispatcher.app.close();
  receiver.close();
  return {
    deliveries: expected,
    seconds: +seconds.toFixed(2),
    perSecond: +(expected / seconds).toFixed(1),
  };
}

/** Part 2: another seller's delivery, with and without stalling sellers holding slots. */
async function fairness() {
  const receiver = await listen(true);
  const stall = await Promise.all(
    Array.from({ length: 2 * STALLING_SELLERS }, () => listen(false)),
  );
  const dispatcher: { app: FastifyInstance } = await serve({
    WEBHOOK_DISPATCH: 'true',
    WEBHOOK_POLL_MS: '25',
    WEBHOOK_TIMEOUT_MS: String(STALL_TIMEOUT_MS),
    WEBHOOK_RETRY_SCHEDULE_MS: '5000,300000',
  });
  const latency = async (label: string) => {
    const shop = await openShop();
    await shop.hook('order.create', receiver.url(`/${label}`));
    const started = performance.now();
    await shop.book();
    await until(
      () => receiver.arrived.some((a) => a.path === `/${label}`),
      600_000,
      `${label}: not delivered`,
    );
    return +((performance.now() - started) / 1000).toFixed(2);
  };
  const baseline = await latency('baseline');
  for (let s = 0; s < STALLING_SELLERS; s++) {
    const shop = await openShop();
    for (let k = 0; k < 10; k++) await shop.hook('*', stall[2 * s + (k % 2)]!.url(`/h${k}`));
    for (let d = 1; d <= 4; d++) await shop.book(`2031-01-0${d}`);
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const held = stall.reduce((n, s) => n + s.arrived.length, 0);
  const underStall = await latency('stalled');
  for (const s of stall) s.close();
  await dispatcher.app.close();
  receiver.close();
  return {
    stallingSellers: STALLING_SELLERS,
    timeoutMs: STALL_TIMEOUT_MS,
    stalledRequestsBeforeTheBooking: held,
    latencySeconds: { baseline, underStall },
  };
}

console.log(
  JSON.stringify(
    {
      database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'embedded',
      loadAverage: os.loadavg().map((l) => +l.toFixed(1)),
      pace: await pace(),
      fairness: await fairness(),
    },
    null,
    2,
  ),
);
await api.app.close();
await database.close();
fs.rmSync(dir, { recursive: true, force: true });
