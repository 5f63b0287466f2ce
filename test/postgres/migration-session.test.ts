/**
 * The migrate's session (db/migrate.ts), when it is cut off or finds another in its way:
 *
 * - A migrate cut off from the database mid-migration (a network cut, a deploy runner gone)
 *   leaves its transaction idle on the server: ended within the migration's idle bound, its
 *   table locks and the migration lock with it. With the bound lifted it stayed until the
 *   server's TCP keepalive noticed (2 hours by default), every statement on its tables
 *   waiting behind it. The cut is a TCP proxy that goes silent while a migration waits for
 *   a lock a side session holds; the side session then lets go, so the migration's
 *   statement ends and its transaction goes idle, its answer never delivered.
 * - Its settings are its transactions' own: none is set on the session, where it would
 *   outlast the migrate on a pooled connection.
 * - A migrate that finds the migration lock taken says every few seconds which session
 *   holds it (it waited silently in Kysely's `pg_advisory_lock`, up to an hour), goes on
 *   once it is free, and gives up after its bound.
 *
 * A database at 0024: 0025 alters `hooks`, 0026 `outbox`, which a side session holds.
 */
import { Kysely, Migrator, PostgresAdapter, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import type { DB } from '../../src/db/types.js';
import { createEmptyDatabase, endPool } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';
import { proxyDatabaseUrl } from '../helpers/tcp-proxy.js';

let empty: Awaited<ReturnType<typeof createEmptyDatabase>>;
let url: string;
let database: Database;
let observer: pg.Client;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  empty = await createEmptyDatabase();
  url = empty.env.DATABASE_URL!;
  database = await openDatabase({ kind: 'postgres', url, poolSize: 2 });
  const upTo = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => migrations },
  });
  const { error } = await upTo.migrateTo('0024_hook_private_events');
  if (error) throw error instanceof Error ? error : new Error('migrating to 0024 failed');
  observer = new pg.Client({ connectionString: url });
  await observer.connect();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});
afterAll(async () => {
  await observer.end();
  await database.close();
  await empty.drop();
});

/** `promise`, or a failure if it takes longer than `ms`: it hung. */
async function notHung<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} still waiting after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** The sessions of the database other than the observer's, as pg_stat_activity has them. */
async function sessions(): Promise<{ pid: number; state: string; waiting: boolean }[]> {
  const { rows } = await observer.query<{ pid: number; state: string; waiting: boolean }>(
    `select pid, state, wait_event_type = 'Lock' as waiting from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()`,
  );
  return rows;
}

const advisoryLocks = async () =>
  (
    await observer.query<{ n: number }>(
      `select count(*)::int as n from pg_locks
        where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`,
    )
  ).rows[0]!.n;

/** The migration lock taken as Kysely's PostgresAdapter takes it, by a session of its own. */
async function holdMigrationLock(): Promise<{ pid: number; release(): Promise<void> }> {
  const side = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
  const adapter = new PostgresAdapter();
  const options = { lockTable: 'kysely_migration_lock', lockRowId: 'migration_lock' };
  let letGo!: () => void;
  const released = new Promise<void>((resolve) => (letGo = resolve));
  let taken!: (pid: number) => void;
  const pid = new Promise<number>((resolve) => (taken = resolve));
  const holding = side.db.connection().execute(async (session) => {
    await adapter.acquireMigrationLock(session, options);
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(session);
    taken(rows[0]!.pid);
    await released;
    await adapter.releaseMigrationLock(session, options);
  });
  const release = async () => {
    letGo();
    await holding;
    await side.close();
  };
  cleanups.push(release);
  return { pid: await pid, release };
}

describe('a migrate cut off from the database', () => {
  it('has its transaction ended by the server within the idle bound, and its locks with it', async () => {
    // The side session holds `outbox`, so 0026 waits inside its transaction.
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    cleanups.push(() => blocker.end());
    await blocker.query('begin');
    await blocker.query('select 1 from outbox limit 1');

    const { proxy, url: proxied } = await proxyDatabaseUrl(url);
    cleanups.push(() => proxy.close());
    const cutOff = await openDatabase({ kind: 'postgres', url: proxied, poolSize: 1 });
    cleanups.push(() => cutOff.close());
    const migrating = migrateToLatest(cutOff.db, {
      lockTimeoutMs: 60_000,
      idleInTransactionMs: 1000,
    }).then(
      () => 'finished',
      () => 'failed',
    );
    cleanups.push(async () => {
      proxy.unstall(); // its connection dropped: the migrate fails
      await migrating;
    });

    let pid = 0;
    await eventually(async () => {
      const waiting = (await sessions()).find((s) => s.waiting);
      expect(waiting).toBeDefined();
      pid = waiting!.pid;
    });
    proxy.stall();
    await blocker.query('rollback');
    // Its statement goes on, its answer never arrives, and its transaction sits idle.
    await eventually(async () => {
      expect((await sessions()).find((s) => s.pid === pid)?.state).not.toBe('active');
    }, 5000);

    const idleSince = Date.now();
    await eventually(async () => {
      expect((await sessions()).map((s) => s.pid)).not.toContain(pid);
    }, 5000);
    expect(Date.now() - idleSince).toBeLessThan(4000);
    // The migration lock went with it, and so did its table locks: outbox is free.
    expect(await advisoryLocks()).toBe(0);
    await notHung(sql`select count(*) from outbox`.execute(database.db), 5000, 'a read of outbox');
    const { rows } = await sql<{ name: string }>`
      select name from kysely_migration order by name desc limit 1`.execute(database.db);
    expect(rows[0]!.name).toBe('0025_made_by');
  });
});

describe("a migrate's settings", () => {
  it('are set on its transactions only, never on the session', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    const statements: string[] = [];
    const recording = new Kysely<DB>({
      dialect: new PostgresDialect({ pool }),
      log: (event) => void statements.push(event.query.sql),
    });
    cleanups.push(() => endPool(pool));
    const results = await notHung(migrateToLatest(recording), 30_000, 'the migrate');
    expect(results.map((r) => r.migrationName)).toEqual([
      '0026_invitation_counts',
      '0027_retention',
      '0028_sortable_text_collation',
      '0029_events_opened_by_hand',
      '0030_webhook_deliveries_hook_due',
    ]);
    // Kysely's own statement taking its lock sets its lock_timeout for itself alone.
    const settings = statements.filter(
      (s) => (/set_config/i.test(s) || /^\s*(set|reset)\b/i.test(s)) && !/pg_advisory_lock/.test(s),
    );
    // One per migration, transaction-local.
    expect(settings).toHaveLength(results.length);
    for (const statement of settings) {
      expect(statement).toMatch(/idle_in_transaction_session_timeout/);
      expect(statement).not.toMatch(/,\s*false\s*\)/);
      expect(statement.match(/,\s*true\s*\)/g)).toHaveLength(3);
    }
    const { rows } = await pool.query<Record<string, string>>(
      `select current_setting('lock_timeout') as lock,
        current_setting('statement_timeout') as statement,
        current_setting('idle_in_transaction_session_timeout') as idle`,
    );
    expect(rows[0]).toEqual({ lock: '0', statement: '0', idle: '0' });
  });
});

describe('a migrate that finds the migration lock taken', () => {
  it('says which session holds it, and goes on once it is free', async () => {
    const holder = await holdMigrationLock();
    const said: string[] = [];
    let finished = false;
    const migrating = migrateToLatest(database.db, {
      lockPollMs: 50,
      onRetry: (error) => said.push(error.message),
    }).finally(() => (finished = true));
    await eventually(async () => expect(said.length).toBeGreaterThan(0), 5000);
    expect(said[0]).toMatch(
      new RegExp(`^waiting for the migration lock held by pid ${holder.pid} \\(.*idle.*\\)`),
    );
    expect(said[0]).toContain(`pg_terminate_backend(${holder.pid})`);
    expect(finished).toBe(false);

    await holder.release();
    expect(await notHung(migrating, 5000, 'the migrate')).toEqual([]);
    expect(await advisoryLocks()).toBe(0);
  });

  it('gives up after its bound, naming the session', async () => {
    const holder = await holdMigrationLock();
    const error = await notHung(
      migrateToLatest(database.db, { lockPollMs: 50, lockWaitMs: 300 }).then(
        () => undefined,
        (e: unknown) => e as Error,
      ),
      5000,
      'the migrate',
    );
    expect(error?.message).toMatch(
      new RegExp(`^The migration lock was held for \\d+ s by pid ${holder.pid}\\b`),
    );
  });
});
