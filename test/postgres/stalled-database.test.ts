/**
 * The pool's connections stalling without a word (a NAT or firewall that forgot the flow, a
 * pooler or a host that hangs while something still acknowledges the packets): neither
 * 'error' nor 'end' comes, and PostgreSQL's own statement_timeout cannot answer through a
 * stalled route. Only the client can tell, by a statement left unanswered: the connection is
 * dropped after the pool's answer bound (ANSWER_TIMEOUT_MS in db/database.ts; short here),
 * the request answers 503, the pool opens new connections, and once the route is back the
 * service serves again. The app talks to PostgreSQL through a TCP proxy the test stalls.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Database } from '../../src/db/database.js';
import { as, expectProblem, rememberTestApp, signUp, testConfig } from '../helpers/app.js';
import { book, item, openShop, seatsReserved } from '../helpers/booking.js';
import { openProxiedDatabase } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';
import type { TcpProxy } from '../helpers/tcp-proxy.js';

const ANSWER_BOUND_MS = 1500;

let proxy: TcpProxy;
let database: Database;
let app: FastifyInstance;
let close: () => Promise<void>;
beforeAll(async () => {
  const opened = await openProxiedDatabase({
    poolSize: 2,
    limits: { statementTimeoutMs: 1000, idleInTransactionMs: 5000 },
    listenerTimeoutMs: 500,
  });
  ({ proxy, database } = opened);
  close = () => opened.close();
  database.boundAnswers(ANSWER_BOUND_MS);
  const config = testConfig({ DATABASE_URL: opened.url });
  app = await buildApp(config, { database });
  await app.ready();
  rememberTestApp(app, database, config);
});
afterAll(async () => {
  await app?.close();
  await close?.();
});

describe('a database whose connections stall', () => {
  it('fails the statements in flight as 503 once unanswered, and serves again when the route is back', async () => {
    const shop = await openShop(app);
    const customer = await signUp(app);
    const first = await book(app, customer, { items: [item(shop.experienceId)] });
    expect(first.statusCode).toBe(201);
    const eventId = first.json().items[0].event.id as string;

    proxy.stall();
    // Two at once: each holds a statement nobody answers on a connection of the pool's, or
    // waits for a new one, which the pool gives up opening after its 10 s.
    const [list, booking] = await Promise.all([
      as(app, shop.seller, { method: 'GET', url: '/api/orders' }),
      book(app, customer, { items: [item(shop.experienceId)] }, { 'idempotency-key': 'stall-1' }),
    ]);
    expectProblem(list, 503, 'service_unavailable');
    expectProblem(booking, 503, 'service_unavailable');
    expect(list.headers['retry-after']).toBeDefined();

    proxy.unstall();
    await eventually(async () => {
      const again = await as(app, shop.seller, { method: 'GET', url: '/api/orders' });
      expect(again.statusCode).toBe(200);
    }, 20_000);
    // The booking cut off mid-way either committed whole or not at all; its retry says which.
    const retried = await book(
      app,
      customer,
      { items: [item(shop.experienceId)] },
      { 'idempotency-key': 'stall-1' },
    );
    expect(retried.statusCode).toBe(201);
    const orders = await as(app, customer, { method: 'GET', url: '/api/orders' });
    expect(orders.json().data).toHaveLength(2);
    expect(await seatsReserved(database.db, eventId)).toBe(2);
  });
});
