/**
 * The database going away under load, with the real server process (the production bundle)
 * on a real PostgreSQL server:
 *
 * 1. Its backends are terminated again and again (`pg_terminate_backend`) while 20 clients
 *    book: the process stays up, requests in flight fail cleanly (503, never 500), and it
 *    serves again as soon as the terminations stop.
 * 2. The database becomes unreachable (a TCP proxy between the server and PostgreSQL is cut)
 *    while the clients keep booking: every request answers 503 with Retry-After, /readyz
 *    503; when the proxy is restored the server recovers by itself.
 *
 * Afterwards: every acknowledged (201) order is in the database, and every event's reserved
 * seats equal its confirmed items and fit its capacity. Only this test's own database's
 * backends are terminated; the shared server keeps running.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabaseUrl } from '../helpers/database.js';
import { buildBundle, startServer, type ServerProcess } from '../helpers/server-process.js';
import { proxyDatabaseUrl, type TcpProxy } from '../helpers/tcp-proxy.js';

const SECRET = 'fault-test-secret-that-is-long-enough-0123';
const FUTURE = '2030-06-01';

let database: { url: string; drop(): Promise<void> };
let proxy: TcpProxy;
let bundle: { bundle: string; remove(): void };
let server: ServerProcess;
let admin: pg.Client;
let databaseName: string;

beforeAll(async () => {
  database = await createTestDatabaseUrl();
  databaseName = new URL(database.url).pathname.slice(1);
  const proxied = await proxyDatabaseUrl(database.url);
  proxy = proxied.proxy;
  bundle = await buildBundle();
  server = await startServer(bundle.bundle, {
    DATABASE_URL: proxied.url,
    BOOKING_SECRET: SECRET,
    RATE_LIMIT_MAX: '0',
    SIGNUPS_PER_ADDRESS: '0',
    DATABASE_POOL_SIZE: '10',
  });
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
}, 120_000);

afterAll(async () => {
  server?.child.kill('SIGKILL');
  await admin?.end();
  await proxy?.close();
  bundle?.remove();
  await database?.drop();
});

interface Reply {
  status: number;
  body: Record<string, unknown>;
  retryAfter: string | null;
}

async function call(method: string, path: string, key?: string, body?: unknown): Promise<Reply> {
  try {
    const response = await fetch(`${server.base}${path}`, {
      method,
      headers: {
        ...(key ? { 'x-api-key': key } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      retryAfter: response.headers.get('retry-after'),
    };
  } catch (error) {
    // The process died or refused the connection: recorded as status 0.
    return { status: 0, body: { error: String(error) }, retryAfter: null };
  }
}

async function signUp(name: string, roles?: string[]): Promise<{ id: string; apiKey: string }> {
  const email = `${name.replace(/\W/g, '').toLowerCase()}.${Date.now()}@example.com`;
  const reply = await call('POST', '/api/users', undefined, {
    name,
    email,
    password: 'a long passphrase',
    ...(roles ? { roles } : {}),
  });
  if (reply.status !== 201) throw new Error(`sign-up failed: ${JSON.stringify(reply)}`);
  return reply.body as { id: string; apiKey: string };
}

async function waitFor(check: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Clients booking one seat each, over and over, until `stop()`; every reply is kept. */
function bookingStorm(customers: { apiKey: string }[], experienceId: string) {
  const replies: Reply[] = [];
  let running = true;
  let n = 0;
  const loops = customers.map(async (customer) => {
    while (running) {
      const arrivalTime = n++ % 2 === 0 ? 900 : 1500;
      replies.push(
        await call('POST', '/api/orders', customer.apiKey, {
          items: [{ experience: { id: experienceId }, arrival: FUTURE, arrivalTime, quantity: 1 }],
        }),
      );
    }
  });
  return {
    replies,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

const byStatus = (replies: Reply[]) =>
  replies.reduce<Record<number, number>>((tally, r) => {
    tally[r.status] = (tally[r.status] ?? 0) + 1;
    return tally;
  }, {});

describe('a server whose database goes away', () => {
  it('stays up, answers 503 with Retry-After meanwhile, recovers by itself and loses nothing', async () => {
    const seller = await signUp('Fault Seller', ['ROLE_SELLER']);
    const experience = await call('POST', '/api/experiences', seller.apiKey, {
      name: 'Storm Kayak',
      price: 10,
      priceType: 'person',
      currency: 'USD',
      duration: 60,
      group: { outingMax: 100_000 },
      schedules: [
        { type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: [900, 1500] },
      ],
    });
    expect(experience.status).toBe(201);
    const experienceId = experience.body.id as string;
    const customers: { id: string; apiKey: string }[] = [];
    for (let i = 0; i < 20; i++) customers.push(await signUp(`Storm Customer ${i}`));

    // 1. Backends terminated under load.
    const storm = bookingStorm(customers, experienceId);
    let terminations = 0;
    const until = Date.now() + 4000;
    while (Date.now() < until) {
      const { rowCount } = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [databaseName],
      );
      terminations += rowCount ?? 0;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await storm.stop();
    const phase1 = byStatus(storm.replies);
    expect(server.child.exitCode, server.output()).toBeNull();
    expect(terminations).toBeGreaterThan(0);
    expect(Object.keys(phase1).map(Number).sort()).toEqual(
      Object.keys(phase1)
        .map(Number)
        .filter((s) => s === 201 || s === 503)
        .sort(),
    );
    await waitFor(
      async () =>
        (
          await call('POST', '/api/orders', customers[0]!.apiKey, {
            items: [
              { experience: { id: experienceId }, arrival: FUTURE, arrivalTime: 900, quantity: 1 },
            ],
          })
        ).status === 201,
      'a booking after the terminations',
    );

    // 2. The database unreachable under load, then back.
    const outage = bookingStorm(customers, experienceId);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await proxy.cut();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const during = outage.replies.length;
    const ready = await call('GET', '/readyz');
    const me = await call('GET', '/api/users/me', seller.apiKey);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await proxy.restore();
    await waitFor(async () => (await call('GET', '/readyz')).status === 200, 'readiness');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await outage.stop();
    expect(ready.status).toBe(503);
    expect(me.status).toBe(503);
    expect(me.body.code).toBe('service_unavailable');
    expect(me.retryAfter).toMatch(/^\d+$/);
    const cut = outage.replies.slice(during);
    const unavailable = outage.replies.filter((r) => r.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const reply of unavailable) {
      expect(reply.body.code).toBe('service_unavailable');
      expect(reply.retryAfter).toMatch(/^\d+$/);
    }
    const phase2 = byStatus(outage.replies);
    expect(Object.keys(phase2).filter((s) => s !== '201' && s !== '503')).toEqual([]);
    expect(
      cut.some((r) => r.status === 201),
      'bookings resume after the outage',
    ).toBe(true);
    expect(server.child.exitCode, server.output()).toBeNull();

    // Nothing acknowledged was lost; seats add up.
    const acknowledged = [...storm.replies, ...outage.replies]
      .filter((r) => r.status === 201)
      .map((r) => r.body.id as string);
    const { rows: stored } = await admin.query<{ id: string }>(
      'select id from orders where id = any($1::text[])',
      [acknowledged],
    );
    expect(stored.length).toBe(acknowledged.length);
    const { rows: unbalanced } = await admin.query(
      `select e.id, e.reserved, e.max, coalesce(sum(i.quantity) filter (where i.status = 200), 0) as booked
         from events e left join order_items i on i.event_id = e.id
        group by e.id
       having e.reserved <> coalesce(sum(i.quantity) filter (where i.status = 200), 0)
           or (e.max is not null and e.reserved > e.max)`,
    );
    expect(unbalanced).toEqual([]);
    // eslint-disable-next-line no-console
    console.log(
      `db faults: ${terminations} backends terminated; under terminations ${JSON.stringify(phase1)}; ` +
        `through the outage ${JSON.stringify(phase2)}; ${acknowledged.length} acknowledged orders, all stored`,
    );
  }, 120_000);
});
