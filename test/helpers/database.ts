/**
 * A fresh, migrated database for one test file: a PGlite restored from the run's
 * template, or, on PostgreSQL, a new database copied from the run's template database.
 */
import fs from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database, type DatabaseOptions } from '../../src/db/database.js';
import { proxyDatabaseUrl, type TcpProxy } from './tcp-proxy.js';

export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

let counter = 0;

export function databaseUrl(name: string): string {
  const u = new URL(process.env.TEST_DATABASE_URL!);
  u.pathname = '/' + name;
  return u.toString();
}

export async function createTestDatabase({ poolSize = 10 } = {}): Promise<Database> {
  if (!onPostgres) {
    const file = inject('pgliteTemplate');
    return openDatabase({ kind: 'pglite', loadDataDir: new Blob([fs.readFileSync(file)]) });
  }
  const template = inject('postgresTemplate');
  const name = `${template.replace(/_tpl$/, '')}_${process.pid}_${++counter}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl(name), poolSize });
  return {
    ...database,
    close: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/** Settings for a database with no schema at all, to exercise start-up checks. */
export async function createEmptyDatabase(): Promise<{
  env: Record<string, string>;
  drop(): Promise<void>;
}> {
  if (!onPostgres) {
    const os = await import('node:os');
    const path = await import('node:path');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-empty-'));
    return {
      env: { DATA_DIR: dir },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `${inject('postgresTemplate').replace(/_tpl$/, '')}_empty_${process.pid}_${++counter}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  return {
    env: { DATABASE_URL: databaseUrl(name) },
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/**
 * A fresh, migrated PostgreSQL database for a server started as a child process: its name,
 * its URL, and how to drop it.
 */
export async function createTestDatabaseUrl(): Promise<{ url: string; drop(): Promise<void> }> {
  const template = inject('postgresTemplate');
  const name = `${template.replace(/_tpl$/, '')}_proc_${process.pid}_${++counter}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  await admin.end();
  return {
    url: databaseUrl(name),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/**
 * Ends a pool of the test's own and waits until each of its connections has closed.
 * `pool.end()` resolves before they have (pg-pool ends its idle clients without waiting), so
 * a database dropped right after (`close()` above, `with (force)`) could still terminate
 * one: its error reached the pool, which throws it without an 'error' listener, failing
 * the run as an uncaught exception once the tests had passed.
 */
export async function endPool(pool: pg.Pool): Promise<void> {
  let open = pool.totalCount;
  const closed = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    pool.on('remove', () => {
      if (--open === 0) resolve();
    });
  });
  await pool.end();
  await closed;
}

/**
 * A fresh, migrated PostgreSQL database opened through a TCP proxy the test can stall or cut
 * (the shared server keeps running for everyone else); `close` ends all three.
 */
export async function openProxiedDatabase(
  options: Omit<Extract<DatabaseOptions, { kind: 'postgres' }>, 'kind' | 'url'>,
): Promise<{ database: Database; proxy: TcpProxy; url: string; close(): Promise<void> }> {
  const created = await createTestDatabaseUrl();
  const { proxy, url } = await proxyDatabaseUrl(created.url);
  const database = await openDatabase({ kind: 'postgres', url, ...options });
  return {
    database,
    proxy,
    url,
    close: async () => {
      await database.close();
      await proxy.close();
      await created.drop();
    },
  };
}
