/**
 * A request whose statement gives up waiting for a lock at `lock_timeout` (55P03,
 * lock_not_available) is answered 503 with Retry-After, as one past statement_timeout is,
 * not 500: another transaction holds the table (a migration, a report, a session left
 * open), and the same request passes once it ends. The app sets no lock_timeout; an
 * operator may, on the role or the database, as here.
 */
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { as, expectProblem, rememberTestApp, testConfig } from '../helpers/app.js';
import { openShop, type Shop } from '../helpers/booking.js';
import { createTestDatabaseUrl } from '../helpers/database.js';

let database: Database;
let app: FastifyInstance;
let url: string;
let drop: () => Promise<void>;
let shop: Shop;
beforeAll(async () => {
  const created = await createTestDatabaseUrl();
  ({ url } = created);
  drop = () => created.drop();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  // Every connection opened from now on starts with it.
  await admin.query(
    `alter database ${pg.escapeIdentifier(new URL(url).pathname.slice(1))} set lock_timeout = '200ms'`,
  );
  await admin.end();
  database = await openDatabase({ kind: 'postgres', url, poolSize: 2 });
  const config = testConfig({ DATABASE_URL: url });
  app = await buildApp(config, { database });
  await app.ready();
  rememberTestApp(app, database, config);
  shop = await openShop(app);
});
afterAll(async () => {
  await app?.close();
  await database?.close();
  await drop?.();
});

describe('a statement past its lock timeout', () => {
  it('is answered 503 with Retry-After, and the request passes once the lock is let go', async () => {
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('lock table orders in access exclusive mode');
      const started = Date.now();
      const refused = await as(app, shop.seller, { method: 'GET', url: '/api/orders' });
      const body = expectProblem(refused, 503, 'service_unavailable');
      expect(refused.headers['retry-after']).toBe('2');
      expect(body.detail).toBe('The data is locked by other work; retry shortly.');
      expect(Date.now() - started).toBeLessThan(5000);
      await holder.query('rollback');
      const served = await as(app, shop.seller, { method: 'GET', url: '/api/orders' });
      expect(served.statusCode).toBe(200);
    } finally {
      await holder.end();
    }
  });
});
