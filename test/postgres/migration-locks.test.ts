/**
 * Migrating while the instances of the release before keep serving (docs/operations.md),
 * with a long transaction open on a table a migration changes (a report, a pg_dump, a psql
 * session left open): the migration waits for its lock at most its lock timeout at a time,
 * so the statements queued behind it on that table go on, and the migrate tries again
 * until the transaction ends (db/migrate.ts). Each migration commits on its own: the locks
 * of one applied before do not outlast it. Without a lock timeout the migration waited for
 * as long as the transaction stayed open, and every statement on the table waited behind
 * it, until the instances' pools ran dry.
 *
 * A database at 0024: 0025 alters `hooks` (and two more tables), 0026 and 0027 alter
 * `outbox`, which a side session keeps open in a transaction.
 */
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { migrateAll } from '../../src/migrate-all.js';
import { createEmptyDatabase } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';

let empty: Awaited<ReturnType<typeof createEmptyDatabase>>;
let database: Database;
let blocker: pg.Client | undefined;

beforeAll(async () => {
  empty = await createEmptyDatabase();
  database = await openDatabase({ kind: 'postgres', url: empty.env.DATABASE_URL!, poolSize: 3 });
  const upTo = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => migrations },
  });
  const { error } = await upTo.migrateTo('0024_hook_private_events');
  if (error) throw error instanceof Error ? error : new Error('migrating to 0024 failed');
});
afterEach(async () => {
  await blocker?.query('rollback').catch(() => undefined);
  await blocker?.end();
  blocker = undefined;
});
afterAll(async () => {
  await database.close();
  await empty.drop();
});

/** A session with a transaction open that has read `outbox` (ACCESS SHARE, held until it ends). */
async function holdOutbox(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: empty.env.DATABASE_URL });
  await client.connect();
  await client.query('begin');
  await client.query('select 1 from outbox limit 1');
  return client;
}

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

const applied = async () =>
  (
    await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
      database.db,
    )
  ).rows.map((r) => r.name);

describe('a migration that waits for a lock', () => {
  it('waits one lock timeout at a time, lets the traffic through, and gives up with 55P03', async () => {
    blocker = await holdOutbox();
    const pauses: number[] = [];
    const migrating = migrateAll(database.db, {
      lockTimeoutMs: 200,
      firstPauseMs: 100,
      retryForMs: 1500,
      onRetry: (_error, pauseMs) => pauses.push(pauseMs),
    }).then(
      () => undefined,
      (error: unknown) => error as Error & { code?: string },
    );
    // It is trying again, 0025 committed on its own: its tables are free.
    await eventually(async () => expect(pauses.length).toBeGreaterThan(0));
    await notHung(sql`select count(*) from hooks`.execute(database.db), 5000, 'a read of hooks');
    // And the table it waits for is read between its tries.
    await notHung(sql`select count(*) from outbox`.execute(database.db), 5000, 'a read of outbox');

    const error = await notHung(migrating, 15_000, 'the migrate');
    expect(error?.code).toBe('55P03');
    expect(error?.message).toMatch(/0025_made_by/);
    const names = await applied();
    expect(names).toContain('0025_made_by');
    expect(names).not.toContain('0026_invitation_counts');
  });

  it('goes on once the transaction in its way ends', async () => {
    blocker = await holdOutbox();
    const holder = blocker;
    const results = await notHung(
      migrateAll(database.db, {
        lockTimeoutMs: 200,
        firstPauseMs: 100,
        retryForMs: 60_000,
        // The report finishes while the migrate waits.
        onRetry: () => void holder.query('rollback'),
      }),
      15_000,
      'the migrate',
    );
    expect(results.map((r) => [r.migrationName, r.status])).toEqual([
      ['0026_invitation_counts', 'Success'],
      ['0027_retention', 'Success'],
      ['0028_sortable_text_collation', 'Success'],
      ['0029_events_opened_by_hand', 'Success'],
      ['0030_webhook_deliveries_hook_due', 'Success'],
    ]);
    expect(await applied()).toContain('0026_invitation_counts');
    // Its settings were its transactions' own: every pooled connection keeps the connection's.
    for (let i = 0; i < 3; i++) {
      const { rows } = await sql<{ lock_timeout: string }>`
        select current_setting('lock_timeout') as lock_timeout`.execute(database.db);
      expect(rows[0]!.lock_timeout).toBe('0');
    }
  });
});
