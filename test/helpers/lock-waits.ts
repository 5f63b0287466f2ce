/**
 * For PostgreSQL tests of races (test/postgres): a plain connection of the test's own to its
 * app's database, to hold row locks so that requests wait at a known point, and a watch for
 * the app's sessions waiting on a lock.
 */
import pg from 'pg';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { databaseUrl } from './database.js';

/** A connection to `database`'s own database, beside the app's pool. */
export async function openLocker(database: Database): Promise<pg.Client> {
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(
    database.db,
  );
  const locker = new pg.Client({ connectionString: databaseUrl(rows[0]!.name) });
  await locker.connect();
  return locker;
}

/**
 * Whether `count` sessions of the database wait on a lock, watched through `client` for at
 * most `ms` (a test that needs them waiting asserts it; one that only times itself goes on).
 */
export async function waitingOnLock(client: pg.Client, count: number, ms = 2000): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until;) {
    // Inside a transaction of the client the activity is read once unless its snapshot is dropped.
    await client.query('select pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (rows[0]!.n >= count) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}
