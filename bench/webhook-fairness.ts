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
 * 3. The reserve: six sellers stall at their cap of 8 (the 48 shared slots), then another
 *    seller books RESERVE_BOOKINGS times for two hooks on receivers that answer after
 *    RECEIVER_DELAY_MS: its pace and the most of its requests open at once, then a fresh
 *    seller's first delivery, timed (what the reserve is kept for).
 * 4. The walk: a backlog of WALK_BACKLOG due deliveries of one hook on a receiver that
 *    answers at once (its host's cap full all along), IDLE_HOOKS other hooks each with a
 *    retry an hour away, the shipped poll: the pace over the first WALK_DELIVERIES, how many
 *    walks of every hook with pending deliveries the dispatcher ran, and what one costs.
 *
 *   npx tsx bench/webhook-fairness.ts                      # embedded database
 *   BENCH_DATABASE_URL=postgres://... npx tsx bench/webhook-fairness.ts
 *
 * Options (environment): PARTS (default pace,fairness,reserve,walk), PACE_BOOKINGS (default
 * 150), STALL_TIMEOUT_MS (default 2000), STALLING_SELLERS (default 8), RESERVE_BOOKINGS
 * (default 60), RECEIVER_DELAY_MS (default 100), WALK_BACKLOG (default 3000),
 * WALK_DELIVERIES (default 1500), IDLE_HOOKS (default 20000).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp, openAppDatabase } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { everyHooksDue, hooksDue } from '../src/modules/hooks/delivery-claims.repository.js';

const PARTS = (process.env.PARTS ?? 'pace,fairness,reserve,walk').split(',');
const PACE_BOOKINGS = Number(process.env.PACE_BOOKINGS ?? 150);
const STALL_TIMEOUT_MS = Number(process.env.STALL_TIMEOUT_MS ?? 2000);
const STALLING_SELLERS = Number(process.env.STALLING_SELLERS ?? 8);
const RESERVE_BOOKINGS = Number(process.env.RESERVE_BOOKINGS ?? 60);
const RECEIVER_DELAY_MS = Number(process.env.RECEIVER_DELAY_MS ?? 100);
const WALK_BACKLOG = Number(process.env.WALK_BACKLOG ?? 3000);
const WALK_DELIVERIES = Number(process.env.WALK_DELIVERIES ?? 1500);
const IDLE_HOOKS = Number(process.env.IDLE_HOOKS ?? 20_000);

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

async function serve(extra: Record<string, string> = {}, on = database) {
  const app = await buildApp(loadConfig({ ...env, ...extra }), { database: on });
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
    call<{ id: string }>('POST', `/api/users/${seller.id}/hooks`, seller.apiKey, {
      eventName,
      url,
    });
  return { seller, book, hook };
}

/**
 * A local server: `answer` false accepts requests and never answers them; `delayMs`, how
 * long it takes to answer. `open`: requests unanswered now; `most`, the most at once.
 */
async function listen(answer: boolean, delayMs = 0, counts = { open: 0, most: 0 }) {
  const arrived: { path: string; at: number }[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrived.push({ path: req.url ?? '/', at: performance.now() });
      counts.open += 1;
      counts.most = Math.max(counts.most, counts.open);
      res.on('close', () => (counts.open -= 1));
      if (!answer) return;
      if (delayMs > 0) setTimeout(() => res.writeHead(204).end(), delayMs);
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = (p: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${p}`;
  const close = () => {
    server.closeAllConnections();
    server.close();
  };
  return { arrived, counts, url, close };
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

/**
 * Part 3: six sellers hold the 48 shared slots with requests that never end; another
 * seller's backlog, then a fresh seller's first delivery, go through the reserve.
 */
async function reserve() {
  const stall = await Promise.all(Array.from({ length: 12 }, () => listen(false)));
  const busy = { open: 0, most: 0 }; // the two receivers' requests together
  const slow = [
    await listen(true, RECEIVER_DELAY_MS, busy),
    await listen(true, RECEIVER_DELAY_MS, busy),
  ];
  const fresh = await listen(true);
  const dispatcher: { app: FastifyInstance } = await serve({
    WEBHOOK_DISPATCH: 'true',
    WEBHOOK_POLL_MS: '25',
    WEBHOOK_TIMEOUT_MS: '60000',
    WEBHOOK_RETRY_SCHEDULE_MS: '600000',
  });
  for (let s = 0; s < 6; s++) {
    const shop = await openShop();
    for (let k = 0; k < 10; k++) await shop.hook('*', stall[2 * s + (k % 2)]!.url(`/h${k}`));
    for (let d = 1; d <= 4; d++) await shop.book(`2031-01-0${d}`);
  }
  const held = () => stall.reduce((n, s) => n + s.counts.open, 0);
  await until(() => held() >= 48, 60_000, 'reserve: the stalling sellers hold fewer than 48');
  const shop = await openShop();
  for (const receiver of slow) await shop.hook('order.create', receiver.url('/busy'));
  for (let i = 0; i < RESERVE_BOOKINGS; i++) await shop.book();
  const expected = RESERVE_BOOKINGS * slow.length;
  const arrivedAll = () => slow.reduce((n, r) => n + r.arrived.length, 0);
  const newcomer = await openShop();
  await newcomer.hook('order.create', fresh.url('/fresh'));
  const started = performance.now();
  await newcomer.book();
  await until(() => fresh.arrived.length > 0, 60_000, 'reserve: the newcomer waits');
  const newcomerSeconds = (performance.now() - started) / 1000;
  await until(() => arrivedAll() >= expected, 600_000, 'reserve: not all delivered');
  const times = slow.flatMap((r) => r.arrived.map((a) => a.at)).sort((a, b) => a - b);
  const seconds = (times.at(-1)! - times[0]!) / 1000;
  const result = {
    stalledRequestsHeld: held(),
    receiverDelayMs: RECEIVER_DELAY_MS,
    deliveries: expected,
    seconds: +seconds.toFixed(2),
    perSecond: +(expected / seconds).toFixed(1),
    mostOpenAtOnce: busy.most,
    newcomerLatencySeconds: +newcomerSeconds.toFixed(2),
  };
  for (const s of [...stall, ...slow, fresh]) s.close();
  await dispatcher.app.close();
  await sql`update hooks set status = 'disabled'`.execute(database.db);
  return result;
}

/**
 * Part 4: a backlog of due deliveries over the walk's threshold for one hook whose host's
 * cap stays full, with IDLE_HOOKS hooks waiting on a retry an hour away.
 */
async function walk() {
  const receiver = await listen(true);
  const shop = await openShop();
  const hook = await shop.hook('order.create', receiver.url('/walk'));
  await shop.book();
  const db = database.db;
  // Copies of the booking's event: as many events, each delivered once.
  await sql`insert into domain_events (id, name, seller_id, actor_id, object, audit, fanned_out)
    select 'fe0000' || lpad(to_hex(n), 18, '0'), e.name, e.seller_id, e.actor_id, e.object, e.audit, true
    from (select * from domain_events where seller_id = ${shop.seller.id}
      and name = 'order.create' limit 1) e, generate_series(1, ${WALK_BACKLOG}) n`.execute(db);
  await sql`insert into webhook_deliveries (id, hook_id, event_id, event_name, event_seq,
      next_attempt_at)
    select 'fd0000' || lpad(to_hex(e.seq), 18, '0'), ${hook.id}, e.id, e.name, e.seq, now() - interval '1 minute'
    from domain_events e where e.id like 'fe0000%'`.execute(db);
  await sql`insert into hooks (id, owner_id, event_name, url, secret_ciphertext, api_version)
    select 'fc0000' || lpad(to_hex(n), 18, '0'), ${shop.seller.id}, 'order.create',
      'http://127.0.0.1:9/idle' || n, h.secret_ciphertext, h.api_version
    from hooks h, generate_series(1, ${IDLE_HOOKS}) n where h.id = ${hook.id}`.execute(db);
  await sql`insert into webhook_deliveries (id, hook_id, event_id, event_name, event_seq,
      next_attempt_at, attempts)
    select 'fb0000' || lpad(to_hex(n), 18, '0'), 'fc0000' || lpad(to_hex(n), 18, '0'), e.id, e.name, e.seq,
      now() + interval '1 hour', 1
    from generate_series(1, ${IDLE_HOOKS}) n,
      (select id, name, seq from domain_events where id like 'fe0000%' limit 1) e`.execute(db);
  await sql`analyze`.execute(db);
  const walkMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await everyHooksDue(db, 16, { perHook: 4 });
    walkMs.push(performance.now() - t0);
  }
  // What a poll between walks reads instead: the walk's turns over the hooks it found.
  const due = await hooksDue(db);
  const knownMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await everyHooksDue(db, 16, { perHook: 4 }, due);
    knownMs.push(performance.now() - t0);
  }
  // Statements walking every hook with pending deliveries (a recursive CTE), and reads
  // of the hooks a walk found (the walk's turns over a list of hooks).
  const ran = { walks: 0, knownHooksReads: 0 };
  const counting = db.withPlugin({
    transformQuery: (args) => {
      const ctes = args.node.kind === 'SelectQueryNode' ? args.node.with : undefined;
      if (ctes?.recursive) ran.walks += 1;
      else if (ctes?.expressions.length === 2) ran.knownHooksReads += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  const dispatcher = await serve({ WEBHOOK_DISPATCH: 'true' }, { ...database, db: counting });
  const started = performance.now();
  await until(() => receiver.arrived.length >= WALK_DELIVERIES, 600_000, 'walk: not delivered');
  const seconds = (performance.now() - started) / 1000;
  const counted = { ...ran };
  await dispatcher.app.close();
  receiver.close();
  await sql`delete from webhook_deliveries where hook_id like 'fc0000%' or id like 'fd0000%'`.execute(
    db,
  );
  await sql`update hooks set status = 'disabled'`.execute(db);
  return {
    backlog: WALK_BACKLOG,
    idleHooks: IDLE_HOOKS,
    deliveries: WALK_DELIVERIES,
    seconds: +seconds.toFixed(2),
    perSecond: +(WALK_DELIVERIES / seconds).toFixed(1),
    ...counted,
    walkMs: +walkMs.sort((a, b) => a - b)[2]!.toFixed(1),
    knownHooksReadMs: +knownMs.sort((a, b) => a - b)[2]!.toFixed(1),
  };
}

const parts: Record<string, () => Promise<unknown>> = { pace, fairness, reserve, walk };
const results: Record<string, unknown> = {};
for (const part of PARTS) results[part] = await parts[part]!();
console.log(
  JSON.stringify(
    {
      database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'embedded',
      loadAverage: os.loadavg().map((l) => +l.toFixed(1)),
      ...results,
    },
    null,
    2,
  ),
);
await api.app.close();
await database.close();
fs.rmSync(dir, { recursive: true, force: true });
