/**
 * List pages run with PostgreSQL's generic plan (db/prepared.ts, db/pipelined-transaction.ts):
 * a statement marked `plan: 'generic'`, once it is parsed on the connection, goes out after
 * a transaction-local setting of `plan_cache_mode` to `force_generic_plan` (a named
 * statement of its own, parsed once per connection), so PostgreSQL never plans it for its
 * values again, while the session's setting is left as it was: after the statement, after a
 * statement that fails, and a connection's own default (a database's or role's setting)
 * kept. Inside a caller's transaction, where the setting would outlive the statement, the
 * page is left to PostgreSQL. What PostgreSQL did is read off
 * `pg_prepared_statements` (its generic and custom plan counts) on the same connection.
 * A booking's read of its one experience needs no setting: its text is one whose generic
 * plan PostgreSQL itself keeps.
 *
 * @isolated The statements must be named: the prepared statements' budget is the
 * process's (db/prepared.ts), and files run earlier in a shared worker may have spent it.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapPoolClients } from '../../src/db/pool-clients.js';
import { prepared } from '../../src/db/prepared.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { databaseUrl, endPool } from '../helpers/database.js';
import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import type { DB } from '../../src/db/types.js';
import { experiencesFacade } from '../../src/modules/experiences/index.js';
import { openShop } from '../helpers/booking.js';

let t: TestApp;
let pool: pg.Pool;
beforeAll(async () => {
  t = await createTestApp();
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(
    t.database.db,
  );
  pool = new pg.Pool({ connectionString: databaseUrl(rows[0]!.name), max: 1 });
  wrapPoolClients(pool);
});
afterAll(async () => {
  await endPool(pool);
  await t.close();
});

/** A marked statement: its text names it, so each test gets one of its own. */
const marked = (text: string, plan?: 'generic') =>
  prepared(CompiledQuery.raw(text), 'reads', plan ? { plan } : {});

async function plans(client: pg.PoolClient, text: string) {
  const { rows } = await client.query<{ generic_plans: string; custom_plans: string }>(
    'select generic_plans, custom_plans from pg_prepared_statements where statement = $1',
    [text],
  );
  return { generic: Number(rows[0]!.generic_plans), custom: Number(rows[0]!.custom_plans) };
}

/** The setting's statement: how many times it ran, named, on the connection (0: never made). */
async function settingRuns(client: pg.PoolClient) {
  const { rows } = await client.query<{ runs: string }>(
    `select coalesce(sum(generic_plans + custom_plans), 0) as runs from pg_prepared_statements
      where statement like '%force_generic_plan%'`,
  );
  return Number(rows[0]!.runs);
}

const setting = async (client: pg.PoolClient) =>
  (await client.query<{ plan_cache_mode: string }>('show plan_cache_mode')).rows[0]!
    .plan_cache_mode;

/** `work` on one connection of `from`, given back after. */
async function onClient(work: (client: pg.PoolClient) => Promise<void>, from = pool) {
  const client = await from.connect();
  try {
    await work(client);
  } finally {
    client.release();
  }
}

describe('a list page marked for the generic plan', () => {
  it('is planned for its values once, then always runs the generic plan', async () => {
    const text = marked('select $1::int + 1 as n /* generic, counted */', 'generic').sql;
    await onClient(async (client) => {
      const ran = await settingRuns(client);
      for (let i = 0; i < 8; i++) {
        const { rows } = await client.query(text, [i]);
        expect(rows).toEqual([{ n: i + 1 }]);
      }
      // PostgreSQL's own choice makes five custom plans first.
      expect(await plans(client, text)).toEqual({ generic: 7, custom: 1 });
      expect(await setting(client)).toBe('auto');
      // The setting is a named statement of the connection, made once (a second Parse of
      // its name would fail), then bound ahead of each of the seven executions.
      expect(await settingRuns(client)).toBe(ran + 7);
    });
  });

  it('leaves other named statements to PostgreSQL', async () => {
    const text = marked('select $1::int + 2 as n /* not marked generic */').sql;
    await onClient(async (client) => {
      for (let i = 0; i < 3; i++) await client.query(text, [i]);
      expect(await plans(client, text)).toEqual({ generic: 0, custom: 3 });
    });
  });

  it("leaves the session's setting as it was when the statement fails", async () => {
    const text = marked('select 10 / $1::int as n /* generic, may fail */', 'generic').sql;
    await onClient(async (client) => {
      await client.query(text, [2]);
      await expect(client.query(text, [0])).rejects.toThrow(/division by zero/);
      expect(await setting(client)).toBe('auto');
      expect((await client.query(text, [5])).rows).toEqual([{ n: 2 }]);
      expect(await setting(client)).toBe('auto');
    });
  });

  it("is left to PostgreSQL inside a caller's transaction, which stays whole", async () => {
    const text = marked('select 10 / $1::int as n /* generic, in a transaction */', 'generic').sql;
    await onClient(async (client) => {
      await client.query(text, [1]);
      await client.query('begin');
      expect((await client.query(text, [2])).rows).toEqual([{ n: 5 }]);
      expect((await client.query(text, [5])).rows).toEqual([{ n: 2 }]);
      expect(await setting(client)).toBe('auto');
      await client.query('commit');
      expect(await plans(client, text)).toEqual({ generic: 0, custom: 3 });
      expect(await setting(client)).toBe('auto');

      await client.query('begin');
      await expect(client.query(text, [0])).rejects.toThrow(/division by zero/);
      await client.query('rollback');
      expect(await setting(client)).toBe('auto');
      expect((await client.query(text, [10])).rows).toEqual([{ n: 1 }]);
      // Outside it again, forced; the failed execution's custom plan is not counted (its
      // planning folded 10 / 0 and failed).
      expect(await plans(client, text)).toEqual({ generic: 1, custom: 3 });
    });
  });

  it("keeps the setting a connection starts with (its database's, its role's) after it", async () => {
    const text = marked('select $1::int * 3 as n /* generic, own default */', 'generic').sql;
    const own = new pg.Pool({
      connectionString: (pool.options as { connectionString: string }).connectionString,
      options: '-c plan_cache_mode=force_custom_plan',
      max: 1,
    });
    wrapPoolClients(own);
    try {
      await onClient(async (client) => {
        for (let i = 0; i < 3; i++) await client.query(text, [i]);
        expect(await setting(client)).toBe('force_custom_plan');
        expect(await plans(client, text)).toEqual({ generic: 2, custom: 1 });
      }, own);
    } finally {
      await own.end();
    }
  });
});

describe("a booking's read of its experiences", () => {
  it('keeps its generic plan for one id, as PostgreSQL chooses it', async () => {
    const shop = await openShop(t.app);
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    // The pool is the test's, with one connection, so the statement is read back from there.
    for (let i = 0; i < 8; i++) {
      const rows = await experiencesFacade.findMany(db, [shop.experienceId]);
      expect(rows.map((r) => r.id)).toEqual([shop.experienceId]);
    }
    await onClient(async (client) => {
      const text = 'select * from "experiences" where "id" = $1';
      // PostgreSQL's own choice: five custom plans, then the generic one kept (`= any($1)`
      // was planned for its values on every execution, priced for an array of ten).
      expect(await plans(client, text)).toEqual({ generic: 3, custom: 5 });
    });
    const two = await experiencesFacade.findMany(db, [shop.experienceId, 'f'.repeat(24)]);
    expect(two.map((r) => r.id)).toEqual([shop.experienceId]);
  });
});
