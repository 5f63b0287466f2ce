/**
 * Prepared statements on a real server (db/prepared.ts): one order by id and list pages
 * whose plan does not depend on their values are sent as named statements, and a
 * migration that adds a column to orders under them (a rolling deploy) does not break the
 * instances that prepared them: PostgreSQL refuses an outdated statement ("cached plan
 * must not change result type") and the query is sent again unnamed, on every connection,
 * without the client seeing anything. Both renderings are exercised: the latest version's
 * JSON text, and an older version's rows read with every column (`select o.*`).
 *
 * @isolated The last test's statement must be named: the prepared statements' budget is the
 * process's (db/prepared.ts), and files run earlier in a shared worker may have spent it,
 * which left the statement unnamed and pg_prepared_statements empty.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { wrapPoolClients } from '../../src/db/pool-clients.js';
import { prepared } from '../../src/db/prepared.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { databaseUrl, endPool } from '../helpers/database.js';

let t: TestApp;
let customer: Account;
let orderId: string;
let shop: Shop;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app, { group: { outingMax: 100 } });
  customer = await signUp(t.app);
  orderId = (await book(t.app, customer, { items: [item(shop.experienceId)] })).json().id;
});
afterAll(async () => t.close());

// The oldest version reads whole rows and maps them in Node; the latest reads JSON text.
const OLDEST = { 'x-api-version': '2000-01-01' };
const reads = () => [
  { url: `/api/orders/${orderId}` },
  { url: `/api/orders/${orderId}`, headers: OLDEST },
  { url: '/api/orders?arrival[gte]=2000-01-01' },
  { url: '/api/orders?arrival[gte]=2000-01-01', headers: OLDEST },
];
const getOne = async () => {
  const answers = await Promise.all(
    reads().map((read) => as(t.app, customer, { method: 'GET', ...read })),
  );
  const failed = answers.find((a) => a.statusCode !== 200);
  return failed ?? { statusCode: 200, json: () => answers.map((a) => a.json()) };
};

describe('prepared statements', () => {
  it('keep answering after a migration changes the table under them', async () => {
    // Prepared on several connections at once, then on one again and again.
    const first = await Promise.all(Array.from({ length: 8 }, getOne));
    for (let i = 0; i < 5; i++) first.push(await getOne());
    expect(first.map((r) => r.statusCode)).toEqual(first.map(() => 200));
    const before = first[0]!.json();

    await sql`alter table orders add column migrated_later integer`.execute(t.database.db);

    const after = [];
    for (let i = 0; i < 5; i++) after.push(await getOne());
    after.push(...(await Promise.all(Array.from({ length: 8 }, getOne))));
    for (const response of after) {
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(before);
    }
    const errors = t.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
    expect(errors).toEqual([]);
  });

  it("keep booking after a migration changes the seats statement's result under it", async () => {
    // The seats statement (it returns the event's every column) and the writes, prepared
    // on several connections, inside transactions.
    const at = (day: number) => item(shop.experienceId, `2031-01-${String(day).padStart(2, '0')}`);
    const bookAll = (days: number[]) =>
      Promise.all(days.map((day) => book(t.app, customer, { items: [at(day)] })));
    const before = [...(await bookAll([1, 2, 3, 4, 1, 2, 3, 4])), ...(await bookAll([1, 5]))];
    expect(before.map((r) => r.statusCode)).toEqual(before.map(() => 201));

    await sql`alter table events add column migrated_later integer`.execute(t.database.db);

    // Existing departures (the update's row) and a new one (the insert's), at once and
    // one by one: the aborted transactions run again, each booking taken exactly once.
    const after = [...(await bookAll([1, 2, 3, 4, 6, 6, 1, 2])), ...(await bookAll([3, 7]))];
    expect(after.map((r) => [r.statusCode, r.json().items?.length])).toEqual(
      after.map(() => [201, 1]),
    );
    const { rows } = await sql<{ day: string; reserved: number }>`
      select to_char(starts_at at time zone 'Europe/Paris', 'DD') as day, reserved from events
       where experience_id = ${shop.experienceId} and starts_at >= '2031-01-01'
       order by starts_at`.execute(t.database.db);
    expect(rows).toEqual(
      ['01', '02', '03', '04', '05', '06', '07'].map((day, i) => ({
        day,
        reserved: [5, 4, 4, 3, 1, 2, 1][i],
      })),
    );
    const errors = t.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
    expect(errors).toEqual([]);
  });

  it('are named statements on the server, run with their values bound', async () => {
    const { rows: here } = await sql<{
      name: string;
    }>`select current_database() as name`.execute(t.database.db);
    const pool = new pg.Pool({ connectionString: databaseUrl(here[0]!.name), max: 1 });
    wrapPoolClients(pool);
    const client = await pool.connect();
    try {
      const marked = prepared(
        t.database.db.selectFrom('orders').select('id').where('id', '=', orderId).compile(),
      );
      for (let i = 0; i < 2; i++) {
        const { rows } = await client.query(marked.sql, [...marked.parameters]);
        expect(rows).toEqual([{ id: orderId }]);
      }
      const unknown = await client.query(marked.sql, ['no such order']);
      expect(unknown.rows).toEqual([]);
      const { rows } = await client.query<{ name: string; statement: string }>(
        'select name, statement from pg_prepared_statements',
      );
      expect(rows).toEqual([
        { name: expect.stringMatching(/^booking_\d+$/), statement: marked.sql },
      ]);
    } finally {
      client.release();
      await endPool(pool);
    }
  });
});
