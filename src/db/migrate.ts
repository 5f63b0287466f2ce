/**
 * Migration runner: Kysely's Migrator over the static list in migrations/index.ts, under
 * Kysely's advisory lock, so several instances starting at once migrate once.
 *
 * Each migration runs in a transaction of its own, with its row in `kysely_migration`:
 * applied one step at a time (Kysely's `migrateUp`). Kysely's own `migrateToLatest` runs
 * every pending migration in one transaction, so the locks the first took (an ALTER TABLE's
 * ACCESS EXCLUSIVE) were held until the last had finished, or finished waiting.
 *
 * A migration waits for a lock at most MIGRATION_LOCK_TIMEOUT_MS at a time. The instances
 * of the release before keep serving while it runs (docs/operations.md), and an ALTER TABLE
 * that waits behind a long transaction (a report, a pg_dump, a psql session left open)
 * queues every later statement on its table behind itself, the instances' bookings too,
 * until their pools are exhausted and every request fails. With `lock_timeout` the
 * migration fails instead (55P03), its transaction rolls back, the traffic goes on, and the
 * migrate tries again after a pause; the deploy waits, not the traffic. It gives up with
 * that error after RETRY_FOR_MS, the migrations applied so far kept.
 */
import { Migrator, sql, type MigrationResult } from 'kysely';
import type { Db } from './database.js';
import { migrations } from './migrations/index.js';

/** How long one statement of a migration may wait for a lock before it is tried again later. */
export const MIGRATION_LOCK_TIMEOUT_MS = 5000;
/** How long the migrate keeps trying after lock timeouts: a deploy step, not a request. */
const RETRY_FOR_MS = 10 * 60_000;
/** The pause after the first lock timeout, doubling up to MAX_PAUSE_MS. */
const FIRST_PAUSE_MS = 1000;
const MAX_PAUSE_MS = 30_000;

export interface MigrateOptions {
  /** MIGRATION_LOCK_TIMEOUT_MS unless given (tests make the waits short). */
  lockTimeoutMs?: number;
  retryForMs?: number;
  firstPauseMs?: number;
  /** Hears each lock timeout before the pause that follows it (a line for the operator). */
  onRetry?: (error: Error, pauseMs: number) => void;
}

function migrator(db: Db): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
}

const isLockTimeout = (error: unknown) => (error as { code?: unknown }).code === '55P03';

export async function migrateToLatest(
  db: Db,
  {
    lockTimeoutMs = MIGRATION_LOCK_TIMEOUT_MS,
    retryForMs = RETRY_FOR_MS,
    firstPauseMs = FIRST_PAUSE_MS,
    onRetry,
  }: MigrateOptions = {},
): Promise<MigrationResult[]> {
  const applied: MigrationResult[] = [];
  const giveUpAt = Date.now() + retryForMs;
  for (let pauseMs = firstPauseMs; ; pauseMs = Math.min(pauseMs * 2, MAX_PAUSE_MS)) {
    try {
      // One connection for the whole run: the session settings below are its own.
      await db
        .connection()
        .execute((session) =>
          withMigrationSettings(session, lockTimeoutMs, () => oneByOne(session, applied)),
        );
      return applied;
    } catch (error) {
      if (!isLockTimeout(error)) throw error;
      if (Date.now() + pauseMs > giveUpAt) {
        throw Object.assign(
          new Error(
            `A migration kept waiting for a lock (${(error as Error).message}) for ${retryForMs / 1000} s: ` +
              'a long transaction holds a table it changes (pg_stat_activity and pg_locks name it). ' +
              `Applied before that: ${applied.map((r) => r.migrationName).join(', ') || 'none'}.`,
            { cause: error },
          ),
          { code: '55P03' },
        );
      }
      onRetry?.(error as Error, pauseMs);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}

/** The pending migrations, each in its own transaction; `applied` hears each as it commits. */
async function oneByOne(session: Db, applied: MigrationResult[]): Promise<void> {
  const steps = migrator(session);
  for (;;) {
    const { error, results = [] } = await steps.migrateUp();
    if (error)
      throw error instanceof Error ? error : new Error('Migration failed', { cause: error });
    if (results.length === 0) return;
    applied.push(...results);
  }
}

/**
 * `run` with the session's lock_timeout set, and the server's bounds on statements and idle
 * transactions lifted (SERVER_LIMITS, db/database.ts: an index build on a large table may
 * take minutes), then the session's own values back before the connection returns to its
 * pool. Kysely's advisory lock sets its own timeout (1 h) for the one statement that takes it.
 */
async function withMigrationSettings(
  session: Db,
  lockTimeoutMs: number,
  run: () => Promise<void>,
): Promise<void> {
  await sql`select set_config('lock_timeout', ${`${lockTimeoutMs}ms`}, false),
    set_config('statement_timeout', '0', false),
    set_config('idle_in_transaction_session_timeout', '0', false)`.execute(session);
  try {
    await run();
  } finally {
    // What RESET gives: the connection's startup values. A connection that cannot run this
    // is broken, and its pool drops it.
    await sql`select set_config(name, reset_val, false) from pg_settings
      where name in ('lock_timeout', 'statement_timeout', 'idle_in_transaction_session_timeout')`
      .execute(session)
      .catch(() => undefined);
  }
}

/** Names of migrations not yet applied; used to refuse starting on an outdated schema. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const list = await migrator(db).getMigrations();
  return list.filter((m) => m.executedAt === undefined).map((m) => m.name);
}
