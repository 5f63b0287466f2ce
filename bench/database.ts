/**
 * The benchmark's database: created when missing, migrated, seeded when it does not hold
 * the wanted data (the seed parameters and a fingerprint of the generator's source are
 * kept in a `bench_state` table, so runs reuse a seeded database), and cleaned of what an
 * earlier run wrote (its accounts, their bookings, the seats those took), so every run
 * starts from the same data.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { localContext } from '../src/cli/commands.js';
import { seed } from '../src/cli/seed.js';
import { resolveSeedOptions, sundayBefore } from '../src/cli/seed/options.js';
import { loadConfig, type Config } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/database.js';
import type { BenchOptions } from './options.js';
import { build } from './processes.js';
import { migrateToLatest } from '../src/db/migrate.js';

/** Every account the bench makes has an email at this domain. */
export const BENCH_DOMAIN = 'bench.example.com';
/** The server secret of the bench (seeded API keys are encrypted under it). */
export const BENCH_SECRET = 'booking-bench-secret-0123456789abcdef';

export interface SeedWanted {
  orders: number;
  sellers: number;
  seed: number;
}

/**
 * The environment of the service under test: the bench database, rate limit off (the load
 * comes from one address), no drain on SIGTERM (each run stops it), the pool size of --pool.
 */
export function serviceEnv(databaseUrl: string, poolSize?: number): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    BOOKING_SECRET: BENCH_SECRET,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '0',
    SIGNUPS_PER_ADDRESS: '0',
    SHUTDOWN_DRAIN_MS: '0',
    ...(poolSize ? { DATABASE_POOL_SIZE: String(poolSize) } : {}),
  };
}

export function benchConfig(databaseUrl: string): Config {
  return loadConfig({ DATABASE_URL: databaseUrl, BOOKING_SECRET: BENCH_SECRET, LOG_LEVEL: 'warn' });
}

/** Creates the database named in `url` on its server unless it exists. */
async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/** A digest of the generator's source: a changed generator means a re-seed. */
function generatorFingerprint(): string {
  const dir = path.join(import.meta.dirname, '../src/cli/seed');
  const hash = createHash('sha256');
  for (const file of fs.readdirSync(dir).sort()) hash.update(fs.readFileSync(path.join(dir, file)));
  return hash.digest('hex').slice(0, 16);
}

interface SeedRecord extends SeedWanted {
  from: string;
  fingerprint: string;
  biggestSeller: string;
}

async function readRecord(database: Database): Promise<SeedRecord | undefined> {
  await sql`create table if not exists bench_state (key text primary key, value jsonb not null)`.execute(
    database.db,
  );
  const { rows } = await sql<{ value: SeedRecord }>`
    select value from bench_state where key = 'seed'`.execute(database.db);
  return rows[0]?.value;
}

/**
 * What every bench script does first: the build when asked, the data it wants, and the
 * service's environment on it.
 */
export async function benchSetup(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<{ record: SeedRecord; env: Record<string, string> }> {
  if (options.build) {
    log('building');
    build();
  }
  const record = await prepareDatabase(
    options.databaseUrl,
    { orders: options.orders, sellers: options.sellers, seed: options.seed },
    log,
  );
  return { record, env: serviceEnv(options.databaseUrl, options.poolSize) };
}

/**
 * Makes sure the database holds the wanted data; returns the seed record. `log` gets one
 * line per decision; the seeder draws its own progress on stderr.
 */
export async function prepareDatabase(
  url: string,
  wanted: SeedWanted,
  log: (line: string) => void,
): Promise<SeedRecord> {
  await ensureDatabase(url);
  const config = benchConfig(url);
  let database = await openDatabase({ kind: 'postgres', url, poolSize: 2 });
  await migrateToLatest(database.db);
  const fingerprint = generatorFingerprint();
  // Data seeded more than a month ago has lost a month of bookable departures: re-seed.
  const stale = sundayBefore(new Date(), 365 + 31);
  try {
    const record = await readRecord(database).catch(() => undefined);
    if (
      record &&
      record.orders === wanted.orders &&
      record.sellers === wanted.sellers &&
      record.seed === wanted.seed &&
      record.fingerprint === fingerprint &&
      record.from > stale
    ) {
      log(`reusing the seeded database (${record.orders.toLocaleString('en-US')} orders)`);
      await cleanUp(database);
      return record;
    }
    await database.close();
    log(`seeding ${wanted.orders.toLocaleString('en-US')} orders, ${wanted.sellers} sellers`);
    const options = resolveSeedOptions({ ...wanted, reset: true });
    const summary = await seed(localContext(config), options);
    database = await openDatabase({ kind: 'postgres', url, poolSize: 2 });
    await readRecord(database);
    const fresh: SeedRecord = {
      ...wanted,
      from: options.from,
      fingerprint,
      biggestSeller: summary.biggestSeller,
    };
    await sql`insert into bench_state (key, value) values ('seed', ${JSON.stringify(fresh)})
              on conflict (key) do update set value = excluded.value`.execute(database.db);
    log(
      `seeded in ${(summary.milliseconds / 1000).toFixed(0)} s: ${JSON.stringify(summary.counts)}`,
    );
    return fresh;
  } finally {
    await database.close();
  }
}

/**
 * Removes what earlier bench runs wrote: seats they took go back to their events, then
 * their orders, emails, idempotency keys and accounts go; the events they created too.
 */
async function cleanUp(database: Database): Promise<void> {
  const { db } = database;
  const bench = sql`(select id from users where email like ${`%@${BENCH_DOMAIN}`})`;
  await db.transaction().execute(async (trx) => {
    await sql`
      update events e set reserved = e.reserved - s.seats
      from (select event_id, sum(quantity)::int as seats from order_items
            where customer_id in ${bench} and status < 300 group by event_id) s
      where e.id = s.event_id`.execute(trx);
    await sql`delete from outbox where order_id in
              (select id from orders where customer_id in ${bench})`.execute(trx);
    // Deleting an item cascades to its guests by item_id, which no index serves (the
    // service never deletes items): a scan of every guest per item deleted, hours for a
    // run's thousands of bookings. An index for this transaction only.
    await sql`create index bench_cleanup_guests_item on order_guests (item_id)`.execute(trx);
    await sql`delete from order_items where customer_id in ${bench}`.execute(trx);
    await sql`drop index bench_cleanup_guests_item`.execute(trx);
    await sql`delete from orders where customer_id in ${bench}`.execute(trx);
    await sql`delete from idempotency_keys where scope in ${bench}`.execute(trx);
    const { rows } = await sql<{ value: string[] }>`
      select value from bench_state where key = 'events'`.execute(trx);
    const created = rows[0]?.value ?? [];
    if (created.length > 0)
      await sql`delete from events where id = any(${created}::text[])`.execute(trx);
    await sql`delete from bench_state where key = 'events'`.execute(trx);
    await sql`delete from users where email like ${`%@${BENCH_DOMAIN}`}`.execute(trx);
  });
  for (const table of ['users', 'events', 'orders', 'order_items', 'outbox'])
    await sql`vacuum analyze ${sql.table(table)}`.execute(db);
}

/** Remembers events the bench created, for the next run's clean-up. */
export async function recordCreatedEvents(url: string, ids: string[]): Promise<void> {
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
  try {
    await sql`insert into bench_state (key, value) values ('events', ${JSON.stringify(ids)})
              on conflict (key) do update
              set value = bench_state.value || excluded.value`.execute(database.db);
  } finally {
    await database.close();
  }
}
