/**
 * Database connection: one `pg.Pool`-shaped layer with Kysely's Postgres dialect on top,
 * backed either by a real PostgreSQL server (`DATABASE_URL`) or by embedded PGlite
 * through PGlite's node-postgres adapter. Everything above this file sees one dialect.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.js';
import { dropConnection, wrapPoolClients, type AnswerBound } from './pool-clients.js';
import { timestamptzParser } from './timestamptz.js';
import type { DB } from './types.js';
import { registerDirectReads } from './direct-read.js';

export type Db = Kysely<DB>;
export type DatabaseKind = 'postgres' | 'pglite';

/** What a LISTEN subscription reports. */
export interface ListenHandlers {
  onMessage(payload: string): void;
  /** Listening (again): anything sent while it was not has been missed. */
  onConnected(): void;
  /** Not listening: messages may be missed until onConnected. */
  onDisconnected(): void;
}

/** A LISTEN subscription. */
export interface Listening {
  /**
   * `pg_notify(channel, payload)` sent on the listening connection itself: it comes back to
   * `onMessage` after every message committed before it was sent (PostgreSQL delivers in
   * commit order), which is how a listener learns it has heard everything up to a moment.
   * Fails while not listening.
   */
  echo(payload: string): Promise<void>;
  stop(): Promise<void>;
}

export interface Database {
  readonly db: Db;
  readonly kind: DatabaseKind;
  /**
   * LISTEN on `channel` (messages sent with `pg_notify` arrive after their transaction
   * commits, from every process on the database). On PostgreSQL a dedicated connection,
   * reconnected with back-off when it drops.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<Listening>;
  close(): Promise<void>;
  /** The pool's connections now: in use, idle, and queries waiting for one (metrics). */
  poolStats(): { inUse: number; idle: number; waiting: number };
  /**
   * From now on, a statement unanswered for `ms` has its connection dropped (it fails as a
   * lost connection; db/pool-clients.ts); 0 lifts the bound. The server sets it once its
   * migrations ran (ANSWER_TIMEOUT_MS). Embedded: nothing to do, there is no socket.
   */
  boundAnswers(ms: number): void;
  /** Embedded only: the data directory as a tarball (test templates restore it in ~0.5 s). */
  dumpDataDir?(): Promise<Blob>;
}

export type DatabaseOptions =
  /**
   * `limits` bound every statement and transaction of the pool's connections (the server's,
   * SERVER_LIMITS; none for the command line, whose seeding and migrations run long).
   * `listenerTimeoutMs`: how long the listening connection may leave an echo unanswered
   * before it is taken for lost (LISTENER_TIMEOUT_MS; tests make it short).
   */
  | {
      kind: 'postgres';
      url: string;
      poolSize: number;
      limits?: SessionLimits;
      listenerTimeoutMs?: number;
    }
  /**
   * `dataDir` undefined means in memory; `loadDataDir` restores a dump (test templates).
   * With a `dataDir`, the process takes its lock (db/data-dir-lock.ts) as `role`; a data
   * directory without a database is made a copy of `template` when given (a migrated data
   * directory, scripts/template.ts), else initialized from nothing (initdb: 10-40 s).
   * `stage` hears one line per stage of opening it.
   */
  | {
      kind: 'pglite';
      dataDir?: string;
      loadDataDir?: Blob;
      role?: string;
      template?: string;
      stage?: (message: string) => void;
    };

/** Server-side bounds on the pool's sessions (PostgreSQL's settings of the same names). */
export interface SessionLimits {
  /** `statement_timeout`: a statement running longer is cancelled (57014, a 503). */
  statementTimeoutMs: number;
  /** `idle_in_transaction_session_timeout`: a transaction left idle longer is ended. */
  idleInTransactionMs: number;
}

/**
 * The server's limits. Nothing else bounds how long a request's statement waits for a lock
 * held by a stuck transaction elsewhere (or for a migration queued behind one), and every
 * such statement keeps a pool connection: a few take out the whole pool, and then every
 * request fails. A request's statements take milliseconds (the list queries of the largest
 * sellers 1-8 ms, docs/performance.md; a page is bounded), and the workers' batches are as
 * small, so 30 s is far from all of them and still frees a connection long before the pool
 * is starved for good. The code leaves no transaction idle but between its own statements
 * (email and webhooks go out after their transactions), so one idle for a minute was
 * abandoned by a hung process or a bug: ended, its locks go with it. Constants, not
 * settings, as long as nothing legitimate comes near them (migrations and the command line
 * run without them: db/migrate.ts, app-database.ts).
 */
export const SERVER_LIMITS: SessionLimits = {
  statementTimeoutMs: 30_000,
  idleInTransactionMs: 60_000,
};

/**
 * How long the server's pool waits for a statement's answer before it takes the connection
 * for stalled and drops it (db/pool-clients.ts). PostgreSQL itself ends any statement at
 * SERVER_LIMITS' 30 s and answers with the error, so a statement still unanswered 10 s after
 * that was never going to be answered: the network or the server hangs. Behind a pooler
 * (DATABASE_SESSION_LIMITS=false) the role's statement_timeout must stay under it too.
 */
export const ANSWER_TIMEOUT_MS = SERVER_LIMITS.statementTimeoutMs + 10_000;

/** How long the listening connection may leave an echo unanswered (listenOnPostgres). */
export const LISTENER_TIMEOUT_MS = 5000;

/** PostgreSQL's own mark of a data directory, written last when a template is copied. */
const PG_VERSION = 'PG_VERSION';

/** Whether `dataDir` holds an embedded database (a PostgreSQL data directory). */
export function hasEmbeddedDatabase(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, PG_VERSION));
}

/**
 * Makes `dataDir` (which holds no database) a copy of the migrated data directory
 * `template`: native file copies, about 1 s for its 40 MB where PGlite's initdb takes
 * 10-40 s (and its own tarball restore 3-6 s). PG_VERSION goes last, so a copy cut short
 * is not taken for a database: the next start copies again over what it left.
 */
function copyTemplate(template: string, dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true });
  for (const entry of fs.readdirSync(template)) {
    // PG_VERSION last; a dot file (a lock left by the build) is not the database's.
    if (entry === PG_VERSION || entry.startsWith('.')) continue;
    fs.cpSync(path.join(template, entry), path.join(dataDir, entry), { recursive: true });
  }
  fs.copyFileSync(path.join(template, PG_VERSION), path.join(dataDir, PG_VERSION));
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

const { builtins } = pg.types;

/**
 * Type parsing shared by both backends: `date` stays a `YYYY-MM-DD` string (pg would make a
 * local-midnight Date of it), `bigint` and `numeric` become numbers (counts and money
 * amounts here stay far inside the exact range of a double), and `timestamptz` is read by
 * a faster path for its common form (timestamptz.ts).
 */
const parsers = new Map<number, (value: string) => unknown>([
  [builtins.DATE, (value) => value],
  [
    builtins.TIMESTAMPTZ,
    timestamptzParser(pg.types.getTypeParser(builtins.TIMESTAMPTZ) as (value: string) => unknown),
  ],
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

/**
 * The embedded server's memory. PGlite starts PostgreSQL with its stock 128 MB of shared
 * buffers, and the WebAssembly memory that holds them is touched at start and never given
 * back: the server started at 378 MB of RSS, at 216 MB with 8 MB of buffers, serving as
 * fast (bench/embedded.ts; docs/performance.md). The newcomer's database is small and the
 * operating system caches its files anyway; production runs PostgreSQL's own server.
 */
const EMBEDDED_SETTINGS = ['-c', 'shared_buffers=8MB', '-c', 'wal_buffers=1MB'];

/** The name listening connections carry in pg_stat_activity (tests find them by it). */
export const LISTENER_APPLICATION_NAME = 'booking-listener';

/**
 * `answer`, or `client` dropped and a rejection once `ms` pass without it. A connection that
 * stalled silently (a NAT or firewall forgot the flow, the peer hangs) neither errs nor ends
 * for many minutes, or ever while something still acknowledges its packets: an unanswered
 * statement is the only sign.
 */
async function answeredWithin<T>(client: pg.Client, answer: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      dropConnection(client);
      reject(new Error(`the listening connection did not answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A dedicated connection that LISTENs on `channel`, reconnecting (250 ms, doubling to 5 s)
 * whenever it drops; handlers hear when it is and is not listening. An echo or the LISTEN
 * itself unanswered within `timeoutMs` counts as the connection dropping: the API-key cache
 * would otherwise stay "listening" on a dead connection, and every request with a cached key
 * wait for a barrier that never comes back (modules/users/caller-cache.ts).
 */
function listenOnPostgres(
  url: string,
  channel: string,
  handlers: ListenHandlers,
  timeoutMs: number,
) {
  let stopped = false;
  let client: pg.Client | undefined;
  /** The connection while it is listening: echoes go out on it, and only then. */
  let listening: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let delayMs = 250;

  const reconnectLater = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, delayMs);
    timer.unref();
    delayMs = Math.min(delayMs * 2, 5000);
  };

  async function connect(): Promise<void> {
    const current = new pg.Client({
      connectionString: url,
      application_name: LISTENER_APPLICATION_NAME,
      // As the pool's connections (openDatabase): an idle flow a NAT or firewall dropped is
      // probed after 10 s idle and given up once the probes go unanswered. This connection
      // is idle most of the time, just what such middleboxes drop.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      // As the pool's: a server that accepts the connection and never answers fails the
      // attempt, and the next one is tried, instead of leaving the listener connecting.
      connectionTimeoutMillis: 10_000,
    });
    client = current;
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (listening === current) listening = undefined;
      handlers.onDisconnected();
      reconnectLater();
    };
    current.on('error', onLost);
    current.on('end', onLost);
    current.on('notification', (message) => {
      if (message.channel === channel) handlers.onMessage(message.payload ?? '');
    });
    try {
      await current.connect();
      await answeredWithin(
        current,
        current.query(`listen ${pg.escapeIdentifier(channel)}`),
        timeoutMs,
      );
      if (stopped) return void (await end(current));
      delayMs = 250;
      listening = current;
      handlers.onConnected();
    } catch {
      onLost();
      await end(current);
    }
  }

  void connect();
  // One statement at a time on this connection: pg queues a second one itself, but that is
  // deprecated (and gone in pg 9), and barriers under load do send while one is on its way.
  let echoes: Promise<unknown> = Promise.resolve();
  return {
    echo: (payload: string) => {
      const sent = echoes.then(async () => {
        const on = listening;
        if (!on) throw new Error('not listening');
        await answeredWithin(
          on,
          on.query('select pg_notify($1, $2)', [channel, payload]),
          timeoutMs,
        );
      });
      echoes = sent.catch(() => undefined);
      return sent;
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      handlers.onDisconnected();
      if (client) await end(client);
    },
  };
}

/**
 * Ends a connection politely, or drops it if that takes more than a second: a stalled one
 * never acknowledges the goodbye, and shutting down would wait for it.
 */
async function end(client: pg.Client): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const patience = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      dropConnection(client);
      resolve();
    }, 1000);
  });
  try {
    await Promise.race([client.end().catch(() => undefined), patience]);
  } finally {
    clearTimeout(timer);
  }
}

const poolStats = (pool: pg.Pool) => ({
  inUse: pool.totalCount - pool.idleCount,
  idle: pool.idleCount,
  waiting: pool.waitingCount,
});

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.kind === 'postgres' ? openPostgres(options) : openEmbedded(options);
}

/** A pool on a PostgreSQL server, its statements bounded as `options.limits` says. */
async function openPostgres(
  options: Extract<DatabaseOptions, { kind: 'postgres' }>,
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    types,
    // A dropped idle connection must not crash the process; the pool replaces it.
    idleTimeoutMillis: 30_000,
    // A starved pool fails loudly (a logged 500) instead of hanging requests forever.
    connectionTimeoutMillis: 10_000,
    // An idle connection to a database cut off without a word (a dropped route, a
    // firewall, a host gone) is probed after 10 s idle and dropped once the probes go
    // unanswered (the kernel's interval and count: 9 x 75 s by default on Linux), instead
    // of being handed to a statement that waits out ~15 min of retransmissions. Node 20
    // sets only the idle delay; readiness is bounded by ping's timeout regardless.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // Sent with each connection's startup message, so they cost no statement or round
    // trip. Statements of their own (a migration's: db/migrate.ts) may lift them.
    ...(options.limits && {
      statement_timeout: options.limits.statementTimeoutMs,
      idle_in_transaction_session_timeout: options.limits.idleInTransactionMs,
    }),
  });
  keepErrorsFromCrashing(pool);
  const bound: AnswerBound = { ms: 0 };
  wrapPoolClients(pool, bound);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  registerDirectReads(db, pool);
  const listeners = new Set<() => Promise<void>>();
  return {
    db,
    kind: 'postgres',
    poolStats: () => poolStats(pool),
    boundAnswers: (ms) => {
      bound.ms = ms;
    },
    listen: async (channel, handlers) => {
      const listening = listenOnPostgres(
        options.url,
        channel,
        handlers,
        options.listenerTimeoutMs ?? LISTENER_TIMEOUT_MS,
      );
      listeners.add(listening.stop);
      return {
        echo: listening.echo,
        stop: async () => {
          listeners.delete(listening.stop);
          await listening.stop();
        },
      };
    },
    close: async () => {
      for (const stop of listeners) await stop();
      await db.destroy();
    },
  };
}

/** PGlite in the data directory (locked for this process) or in memory. */
async function openEmbedded(
  options: Extract<DatabaseOptions, { kind: 'pglite' }>,
): Promise<Database> {
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
  const stage = options.stage ?? (() => undefined);
  let pglite: InstanceType<typeof PGlite>;
  try {
    const started = performance.now();
    const dataDir = options.dataDir;
    if (dataDir && !hasEmbeddedDatabase(dataDir)) {
      if (options.template && hasEmbeddedDatabase(options.template)) {
        stage(`embedded database: none in ${dataDir} yet; copying the migrated template`);
        copyTemplate(options.template, dataDir);
        stage(`embedded database: template copied in ${seconds(started)}`);
      } else {
        stage(
          `embedded database: none in ${dataDir} yet; creating one (initdb, 10-40 s; \`npm run build\` makes a template that takes 1 s)`,
        );
      }
    }
    pglite = new PGlite({
      startParams: [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS],
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      extensions: { pg_trgm },
    });
    await pglite.waitReady;
    if (dataDir) stage(`embedded database: open (${dataDir}) in ${seconds(started)}`);
  } catch (error) {
    lock?.release();
    throw error;
  }
  // PGlite is one session: a pool of one serializes transactions instead of interleaving them.
  const pool = new pg.Pool({ ...createPgConfig(pglite), max: 1, types });
  keepErrorsFromCrashing(pool);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  registerDirectReads(db, pool);
  return {
    db,
    kind: 'pglite',
    poolStats: () => poolStats(pool),
    boundAnswers: () => undefined,
    // One process has the data directory (its lock): PGlite's own LISTEN hears everything.
    listen: async (channel, handlers) => {
      const unlisten = await pglite.listen(channel, (payload) => handlers.onMessage(payload));
      handlers.onConnected();
      return {
        echo: async (payload: string) => {
          await pglite.query('select pg_notify($1, $2)', [channel, payload]);
        },
        stop: async () => {
          handlers.onDisconnected();
          await unlisten().catch(() => undefined); // already closed: nothing to stop
        },
      };
    },
    dumpDataDir: () => pglite.dumpDataDir('none'),
    close: async () => {
      await db.destroy();
      await pglite.close();
      lock?.release();
    },
  };
}

/**
 * One round trip to the database within `timeoutMs`: what readiness means. A database that
 * does not answer (unreachable without a refusal, every connection busy, the embedded one
 * held by a long transaction) rejects when the time is up instead of hanging the caller;
 * the statement itself is left to finish or fail on its own.
 */
export async function ping(db: Db, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the database did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([sql`select 1`.execute(db), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
