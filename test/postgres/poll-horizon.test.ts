/**
 * A poller of `updatedAt` misses nothing (docs/query-language.md, "Polling for changes"): a
 * transaction that stamped an order and has not committed yet holds the orders list read
 * past an `updatedAt` below its stamp, so an order another transaction stamped later and
 * committed first is not shown before it, and the poller's next `updatedAt[gt]` still
 * finds the first one once it commits. The open transaction is held on a raw connection
 * with the earliest stamp a writer can take: its own start (`now()`).
 */
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { as, rememberTestApp, signUp, testConfig, type Account } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { createTestDatabaseUrl } from '../helpers/database.js';
import { pastStamps } from '../helpers/horizon.js';

let app: FastifyInstance;
let database: Database;
let url: string;
let drop: () => Promise<void>;

beforeAll(async () => {
  const created = await createTestDatabaseUrl();
  url = created.url;
  drop = () => created.drop();
  database = await openDatabase({ kind: 'postgres', url, poolSize: 4 });
  // No margin: the instance and PostgreSQL share this machine's clock.
  const config = testConfig({ POLL_HORIZON_MARGIN_MS: '0' });
  app = await buildApp(config, { database });
  await app.ready();
  rememberTestApp(app, database, config);
});
afterAll(async () => {
  await app.close();
  await database.close();
  await drop();
});

interface Listed {
  id: string;
  customerName: string;
  updatedAt: string;
}

async function poll(seller: Account, since: string): Promise<Listed[]> {
  const response = await as(app, seller, {
    method: 'GET',
    url: `/api/orders?updatedAt[gt]=${encodeURIComponent(since)}&sort=updatedAt&limit=100`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: Listed[] }>().data;
}

describe('polling updatedAt', () => {
  let shop: Shop;
  let first: string;
  let second: string;

  beforeAll(async () => {
    shop = await openShop(app);
    const customer = await signUp(app);
    const ids = [];
    for (let n = 0; n < 2; n++) {
      const response = await book(app, customer, {
        customerName: `Guest ${n}`,
        items: [item(shop.experienceId)],
      });
      expect(response.statusCode).toBe(201);
      ids.push(response.json<{ id: string }>().id);
    }
    [first, second] = ids as [string, string];
    // Last changed minutes ago, the first before the second.
    for (const [id, minutes] of [
      [first, 2],
      [second, 1],
    ] as const) {
      await sql`update orders set updated_at = now() - ${minutes} * interval '1 minute' where id = ${id}`.execute(
        database.db,
      );
    }
  });

  it('does not jump over an order whose transaction commits after a later one', async () => {
    const seen = new Map<string, Listed>();
    let cursor = new Date(Date.now() - 3_600_000).toISOString();
    const pollOnce = async () => {
      const page = await poll(shop.seller, cursor);
      for (const order of page) seen.set(order.id, order);
      if (page.length > 0) cursor = page.at(-1)!.updatedAt;
      return page;
    };
    expect((await pollOnce()).map((o) => o.id)).toEqual([first, second]);
    let stampOfSecond = '';

    const held = new pg.Client({ connectionString: url });
    await held.connect();
    try {
      // A change of the first order, stamped at its transaction's start and not committed.
      await held.query('begin');
      await held.query(
        `update orders set customer_name = 'Changed first', updated_at = now() where id = $1`,
        [first],
      );
      // A change of the second, stamped later through the API, committed at once.
      const changed = await as(app, shop.seller, {
        method: 'PATCH',
        url: `/api/orders/${second}`,
        payload: { customerName: 'Changed second' },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      stampOfSecond = changed.json<Listed>().updatedAt;
      // The poller does not see it yet: the open transaction may still commit below it.
      expect(await pollOnce()).toEqual([]);
      await held.query('commit');
    } finally {
      await held.end();
    }

    // The process's creation clock may run ahead of the wall clock (helpers/horizon.ts).
    await pastStamps(stampOfSecond);
    const after = await pollOnce();
    expect(after.map((o) => [o.id, o.customerName])).toEqual([
      [first, 'Changed first'],
      [second, 'Changed second'],
    ]);
    expect([...seen.values()].map((o) => o.customerName).sort()).toEqual([
      'Changed first',
      'Changed second',
    ]);
  });
});
