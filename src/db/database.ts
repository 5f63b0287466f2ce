/**
 * Database connection: one `pg.Pool`-shaped layer with Kysely's Postgres dialect on top,
 * backed either by a real PostgreSQL server (`DATABASE_URL`) or by embedded PGlite
 * through PGlite's node-postgres adapter. Everything above this file sees one dialect.
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.js';
import type { DB } from './types.js';

export type Db = Kysely<DB>;
export type DatabaseKind = 'postgres' | 'pglite';

export interface Database {
  readonly db: Db;
  readonly kind: DatabaseKind;
  close(): Promise<void>;
  /** Embedded only: the data directory as a tarball (test templates restore it in ~0.5 s). */
  dumpDataDir?(): Promise<Blob>;
}

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize: number }
  /**
   * `dataDir` undefined means in memory; `loadDataDir` restores a dump (test templates).
   * With a `dataDir`, the process takes its lock (db/data-dir-lock.ts) as `role`.
   */
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob; role?: string };

const { builtins } = pg.types;

/**
 * Type parsing shared by both backends: `date` stays a `YYYY-MM-DD` string (pg would make a
 * local-midnight Date of it), `bigint` and `numeric` become numbers (counts and money
 * amounts here stay far inside the exact range of a double).
 */
const parsers = new Map<number, (value: string) => unknown>([
  [builtins.DATE, (value) => value],
  [builtins.INT8, (value) => Number.parseInt(value, 10)],
  [builtins.NUMERIC, (value) => Number.parseFloat(value)],
]);
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    parsers.get(oid) ?? (pg.types.getTypeParser(oid, format) as (value: string) => unknown),
};

/**
 * A connection the server drops (a restart, `pg_terminate_backend`, a network cut) makes
 * its client emit 'error'. pg's pool listens only while a client is idle; a client checked
 * out between two statements of a transaction has no listener, and an unheard 'error' event
 * ends the process. So every client gets a listener for its whole life: the statement in
 * flight fails with the error (the request answers 503, see db/errors.ts), and the pool
 * discards the broken client when it is released and opens a new one on demand.
 */
function keepErrorsFromCrashing(pool: pg.Pool): void {
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize,
      types,
      // A dropped idle connection must not crash the process; the pool replaces it.
      idleTimeoutMillis: 30_000,
      // A starved pool fails loudly (a logged 500) instead of hanging requests forever.
      connectionTimeoutMillis: 10_000,
    });
    keepErrorsFromCrashing(pool);
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }

  // Loaded only in embedded mode: the WASM build costs start-up time a server never needs.
  const [{ PGlite }, { pg_trgm }, { createPgConfig }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite/node-postgres'),
  ]);
  // One process per data directory: refused here, before anything is read or written.
  const lock = options.dataDir
    ? lockDataDir(options.dataDir, options.role ?? 'process')
    : undefined;
  let pglite: InstanceType<typeof PGlite>;
  try {
    pglite = new PGlite({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      extensions: { pg_trgm },
    });
    await pglite.waitReady;
  } catch (error) {
    lock?.release();
    throw error;
  }
  // PGlite is one session: a pool of one serializes transactions instead of interleaving them.
  const pool = new pg.Pool({ ...createPgConfig(pglite), max: 1, types });
  keepErrorsFromCrashing(pool);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'pglite',
    dumpDataDir: () => pglite.dumpDataDir('none'),
    close: async () => {
      await db.destroy();
      await pglite.close();
      lock?.release();
    },
  };
}

/** One round trip to the database: what readiness means. */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
