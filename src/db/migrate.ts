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
 *
 * A migration's transaction is never idle but for a moment between its statements, so one
 * idle for MIGRATION_IDLE_IN_TRANSACTION_MS was abandoned: its migrate was cut off from the
 * database (a network cut, a deploy runner gone). The server ends it, and the table locks it
 * held go with it; otherwise they stayed until the server's TCP keepalive noticed (2 hours
 * by default), every booking on those tables failing meanwhile.
 *
 * These settings are the transaction's own (`set_config(..., true)`), never the session's:
 * a connection that reaches a pool of the app's (a pooler in between, or a pool a server
 * migrating on start goes on using) keeps the app's settings. Kysely's advisory lock is a
 * session's, though: `migrate` must connect to PostgreSQL directly, not through a
 * transaction-mode pooler (docs/operations.md).
 *
 * A migrate that finds the lock taken says so every few seconds, naming the session that
 * holds it, instead of waiting silently in Kysely's `pg_advisory_lock` for up to an hour:
 * another migrate running, or one cut off between two of its transactions, which holds no
 * table but keeps the lock until the server's keepalive notices (the operator ends it).
 */
import { Migrator, sql, type Migration, type MigrationResult } from 'kysely';
import { SERVER_LIMITS, type Db } from './database.js';
import { migrations } from './migrations/index.js';

/** How long one statement of a migration may wait for a lock before it is tried again later. */
export const MIGRATION_LOCK_TIMEOUT_MS = 5000;
/** How long a migration's transaction may sit idle: the server's own bound (SERVER_LIMITS). */
export const MIGRATION_IDLE_IN_TRANSACTION_MS = SERVER_LIMITS.idleInTransactionMs;
/** How long the migrate keeps trying after lock timeouts: a deploy step, not a request. */
const RETRY_FOR_MS = 10 * 60_000;
/** The pause after the first lock timeout, doubling up to MAX_PAUSE_MS. */
const FIRST_PAUSE_MS = 1000;
const MAX_PAUSE_MS = 30_000;

/**
 * The key of Kysely's migration lock (PostgresAdapter in kysely 0.28: a session-level
 * `pg_advisory_lock` on it; test/postgres/migration-session.test.ts takes it through the
 * adapter). The migrate takes the same lock first and keeps it across its steps, so
 * Kysely's own takes it again at once (advisory locks nest within a session), no other
 * migrate slips in between two steps, and one that waits does so here, visibly.
 */
const MIGRATION_LOCK_KEY = 3853314791062309107n;
/** How often a migrate that finds the migration lock taken tries it again. */
const LOCK_POLL_MS = 1000;
/** How often it says it is still waiting, and for whom. */
const LOCK_REPORT_MS = 5000;
/** How long it waits for the lock before giving up: Kysely's own bound. */
const LOCK_WAIT_MS = 60 * 60_000;

export interface MigrateOptions {
  /** MIGRATION_LOCK_TIMEOUT_MS unless given (tests make the waits short). */
  lockTimeoutMs?: number;
  retryForMs?: number;
  firstPauseMs?: number;
  /** MIGRATION_IDLE_IN_TRANSACTION_MS unless given. */
  idleInTransactionMs?: number;
  /** How often the migration lock is tried while another session holds it (LOCK_POLL_MS). */
  lockPollMs?: number;
  /** How long the migration lock is waited for (LOCK_WAIT_MS). */
  lockWaitMs?: number;
  /**
   * Hears each wait for a lock (a line for the operator): a lock timeout before the pause
   * that follows it, and every LOCK_REPORT_MS the session holding the migration lock.
   */
  onRetry?: (error: Error, pauseMs: number) => void;
}

/** The settings of every migration's transaction (`bounded`). */
interface Bounds {
  lockTimeoutMs: number;
  idleInTransactionMs: number;
}

function migrator(db: Db, list: Record<string, Migration> = migrations): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => list },
  });
}

const isLockTimeout = (error: unknown) => (error as { code?: unknown }).code === '55P03';

export async function migrateToLatest(
  db: Db,
  {
    lockTimeoutMs = MIGRATION_LOCK_TIMEOUT_MS,
    retryForMs = RETRY_FOR_MS,
    firstPauseMs = FIRST_PAUSE_MS,
    idleInTransactionMs = MIGRATION_IDLE_IN_TRANSACTION_MS,
    lockPollMs = LOCK_POLL_MS,
    lockWaitMs = LOCK_WAIT_MS,
    onRetry,
  }: MigrateOptions = {},
): Promise<MigrationResult[]> {
  const applied: MigrationResult[] = [];
  const steps = bounded(migrations, { lockTimeoutMs, idleInTransactionMs });
  const giveUpAt = Date.now() + retryForMs;
  for (let pauseMs = firstPauseMs; ; pauseMs = Math.min(pauseMs * 2, MAX_PAUSE_MS)) {
    try {
      // One connection for the whole run: the migration lock below is its session's.
      await db.connection().execute(async (session) => {
        await takeMigrationLock(session, lockPollMs, lockWaitMs, onRetry);
        try {
          await oneByOne(session, steps, applied);
        } finally {
          // A connection that cannot run this is broken: its session, and the lock, are gone.
          await sql`select pg_advisory_unlock(${sql.lit(MIGRATION_LOCK_KEY)})`
            .execute(session)
            .catch(() => undefined);
        }
      });
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
async function oneByOne(
  session: Db,
  list: Record<string, Migration>,
  applied: MigrationResult[],
): Promise<void> {
  const steps = migrator(session, list);
  for (;;) {
    const { error, results = [] } = await steps.migrateUp();
    if (error)
      throw error instanceof Error ? error : new Error('Migration failed', { cause: error });
    if (results.length === 0) return;
    applied.push(...results);
  }
}

/**
 * Each migration of `list`, its transaction's settings first: the lock timeout, no bound on
 * a statement (SERVER_LIMITS' 30 s, a server migrating on start: an index build on a large
 * table may take minutes), and the bound on idling. Transaction-local, so they end with its
 * commit or rollback and never outlast it on the connection.
 */
function bounded(list: Record<string, Migration>, bounds: Bounds): Record<string, Migration> {
  return Object.fromEntries(
    Object.entries(list).map(([name, migration]) => [
      name,
      {
        ...migration,
        up: async (trx: Parameters<Migration['up']>[0]) => {
          await sql`select set_config('lock_timeout', ${`${bounds.lockTimeoutMs}ms`}, true),
            set_config('statement_timeout', '0', true),
            set_config('idle_in_transaction_session_timeout',
              ${`${bounds.idleInTransactionMs}ms`}, true)`.execute(trx);
          await migration.up(trx);
        },
      },
    ]),
  );
}

/** The session holding the migration lock, as pg_stat_activity shows it. */
interface LockHolder {
  pid: number;
  application: string | null;
  state: string | null;
  forSeconds: number | null;
}

/**
 * The migration lock, taken by `session` (and kept until its caller releases it): tried
 * every `pollMs`, never waited for inside the server (a migrate cut off while waiting there
 * would take the lock once it came free, and keep it). While another session holds it, says
 * which every LOCK_REPORT_MS; gives up after `waitMs`.
 */
async function takeMigrationLock(
  session: Db,
  pollMs: number,
  waitMs: number,
  onWait: MigrateOptions['onRetry'],
): Promise<void> {
  const startedAt = Date.now();
  let reportedAt: number | undefined;
  for (;;) {
    const { rows } = await sql<{ taken: boolean }>`
      select pg_try_advisory_lock(${sql.lit(MIGRATION_LOCK_KEY)}) as taken`.execute(session);
    if (rows[0]?.taken) return;
    const holder = await migrationLockHolder(session);
    const waited = Date.now() - startedAt;
    const whose = holder
      ? `pid ${holder.pid}${holderDetails(holder)}: another migrate is running, or one cut off ` +
        `from the database holds it (select pg_terminate_backend(${holder.pid}) ends it)`
      : 'a session that has just let it go';
    if (waited >= waitMs)
      throw new Error(
        `The migration lock was held for ${Math.round(waited / 1000)} s by ${whose}.`,
      );
    if (holder && (reportedAt === undefined || Date.now() - reportedAt >= LOCK_REPORT_MS)) {
      reportedAt = Date.now();
      onWait?.(new Error(`waiting for the migration lock held by ${whose}`), pollMs);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** pg_locks shows a bigint advisory key as its high and low 32 bits (objsubid 1). */
async function migrationLockHolder(session: Db): Promise<LockHolder | undefined> {
  const high = Number(MIGRATION_LOCK_KEY >> 32n);
  const low = Number(MIGRATION_LOCK_KEY & 0xffffffffn);
  const { rows } = await sql<LockHolder>`
    select l.pid, a.application_name as application, a.state,
      floor(extract(epoch from now() - a.state_change))::int as "forSeconds"
    from pg_locks l left join pg_stat_activity a on a.pid = l.pid
    where l.locktype = 'advisory' and l.granted and l.objsubid = 1
      and l.classid = ${String(high)}::oid and l.objid = ${String(low)}::oid
      and l.database = (select oid from pg_database where datname = current_database())
    limit 1`.execute(session);
  return rows[0];
}

/** What pg_stat_activity says of the holder: ` ('cli migrate', idle in transaction for 12 s)`. */
function holderDetails(holder: LockHolder): string {
  const state =
    holder.state &&
    `${holder.state}${holder.forSeconds === null ? '' : ` for ${holder.forSeconds} s`}`;
  const details = [holder.application && `'${holder.application}'`, state].filter(Boolean);
  return details.length > 0 ? ` (${details.join(', ')})` : '';
}

/** Names of migrations not yet applied; used to refuse starting on an outdated schema. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const list = await migrator(db).getMigrations();
  return list.filter((m) => m.executedAt === undefined).map((m) => m.name);
}
