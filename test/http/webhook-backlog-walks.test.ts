/**
 * The walk of every hook with pending deliveries, rated (src/modules/hooks/
 * delivery-claims.repository.ts, `Walks`): with 1,000 due deliveries or more and a cap full,
 * the dispatcher polls again as each delivery ends, and every poll walked every hook with
 * pending deliveries (a probe each: 20,000 hooks waiting on retries, about 200 ms a walk).
 * Now a dispatcher walks at most once a poll interval; the polls between read the hooks the
 * walk found with due deliveries, in the same turns. A tenant whose delivery falls due
 * meanwhile is found by the next walk: delivered within a poll interval or so, long before
 * the backlog is through.
 */
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { as, createTestApp, testConfig, type TestApp } from '../helpers/app.js';
import { book, item, openShop } from '../helpers/booking.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const POLL_MS = 300;
const BACKLOG = 1200;

let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  t = await createTestApp({ BOOKING_ENV: 'sandbox' });
  receiver = await startReceiver();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

async function hook(shop: Awaited<ReturnType<typeof openShop>>, path: string) {
  const made = await as(t.app, shop.seller, {
    method: 'POST',
    url: `/api/users/${shop.seller.id}/hooks`,
    payload: { eventName: 'order.create', url: receiver.url(path) },
  });
  expect(made.statusCode, made.body).toBe(201);
  return made.json().id as string;
}

it('walks once a poll interval under a backlog, and a new tenant is delivered meanwhile', async () => {
  // A backlog of 1,200 due deliveries for one hook (copies of one booking's event); its
  // host's cap of 4 is full all along.
  const shop = await openShop(t.app);
  const hookId = await hook(shop, '/backlog');
  const booked = await book(t.app, shop.seller, {
    customerName: 'B',
    items: [item(shop.experienceId)],
  });
  expect(booked.statusCode, booked.body).toBe(201);
  const db = t.database.db;
  await sql`insert into domain_events (id, name, seller_id, actor_id, object, audit, fanned_out)
    select 'fe0000' || lpad(to_hex(n), 18, '0'), e.name, e.seller_id, e.actor_id, e.object,
      e.audit, true
    from (select * from domain_events where seller_id = ${shop.seller.id}
      and name = 'order.create' limit 1) e, generate_series(1, ${BACKLOG}) n`.execute(db);
  await sql`insert into webhook_deliveries (id, hook_id, event_id, event_name, event_seq,
      next_attempt_at)
    select 'fd0000' || substr(e.id, 7), ${hookId}, e.id, e.name, e.seq, now() - interval '1 minute'
    from domain_events e where e.id like 'fe0000%'`.execute(db);

  // Statements that walk every hook with pending deliveries (a recursive CTE).
  let walks = 0;
  const counting = db.withPlugin({
    transformQuery: (args) => {
      if (args.node.kind === 'SelectQueryNode' && args.node.with?.recursive) walks += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  const dispatcher: FastifyInstance = await buildApp(
    testConfig({
      BOOKING_ENV: 'sandbox',
      WEBHOOK_DISPATCH: 'true',
      WEBHOOK_POLL_MS: String(POLL_MS),
    }),
    { database: { ...t.database, db: counting }, logStream: new PassThrough().resume() },
  );
  const started = performance.now();
  await dispatcher.ready();
  try {
    const backlog = (all: { path: string }[]) => all.filter((r) => r.path === '/backlog').length;
    await receiver.waitFor((all) => backlog(all) >= 100, 30_000);

    // A new tenant books: found by the next walk, while the backlog is far from through.
    const other = await openShop(t.app);
    await hook(other, '/other');
    const booked = await book(t.app, other.seller, {
      customerName: 'O',
      items: [item(other.experienceId)],
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const all = await receiver.waitFor((all) => all.some((r) => r.path === '/other'), 15_000);
    // Served while the backlog is far from through (an order, not a time: machines vary).
    expect(backlog(all)).toBeLessThan(BACKLOG - 200);

    await receiver.waitFor((all) => backlog(all) >= 400, 60_000);
    const seconds = (performance.now() - started) / 1000;
    // One walk a poll interval at most (and one to start): about one a poll before, as each
    // poll claimed the 4 its host's cap allows, over a hundred here.
    expect(walks).toBeLessThanOrEqual(Math.ceil((seconds * 1000) / POLL_MS) + 2);
  } finally {
    await dispatcher.close();
  }
});
