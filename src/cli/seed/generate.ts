/**
 * Seeding a database end to end, in one transaction: accounts, guides, experiences,
 * events, orders in batches, then the indexes and foreign keys put back (bulk-load.ts),
 * and finally VACUUM ANALYZE (outside the transaction) so the planner has statistics and
 * index-only scans find the visibility map set, as on a settled production table.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ApiKeyCipher } from '../../security/api-keys.js';
import { createCustomers, createSellers } from './accounts.js';
import { detach, reattach } from './bulk-load.js';
import { createEvents, createExperiences, createGuides } from './catalog.js';
import { seedContext } from './context.js';
import type { SeedOptions } from './options.js';
import { createOrderBatch, settleEvents } from './orders.js';
import type { Progress } from './progress.js';

/** Tables the seeder fills (their indexes and foreign keys are detached while it does). */
const BULK_TABLES = ['guides', 'experiences', 'events', 'orders', 'order_items', 'order_guests'];
/** Tables emptied by --reset, children first. */
const ALL_TABLES = [
  'publishable_keys',
  'webhook_attempts',
  'webhook_deliveries',
  'outbox',
  'hooks',
  'domain_events',
  'idempotency_keys',
  'reseller_booking_seats',
  'reseller_bookings',
  'reseller_credentials',
  'checkins',
  'order_guests',
  'resource_seats',
  'resources',
  'order_items',
  'orders',
  'events',
  'experiences',
  'guides',
  'delegates',
  'users',
];

export interface SeedSettings {
  cipher: ApiKeyCipher;
  passwordHash: string;
  apiVersion: string;
  progress: Progress;
}

export interface SeedSummary {
  options: SeedOptions;
  counts: Record<'users' | 'guides' | 'experiences' | 'events' | 'orders' | 'order_items', number>;
  /** The seller with the most orders (the hardest case for a seller-scoped list). */
  biggestSeller: string;
  milliseconds: number;
}

export class SeedRefusedError extends Error {}

async function existingRows(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select (select count(*) from experiences)::int + (select count(*) from orders)::int
           + (select count(*) from events)::int as n`.execute(db);
  return rows[0]!.n;
}

export async function seedDatabase(
  db: Db,
  options: SeedOptions,
  settings: SeedSettings,
): Promise<SeedSummary> {
  const started = performance.now();
  const { progress } = settings;
  if (!options.reset && (await existingRows(db)) > 0) {
    throw new SeedRefusedError(
      'The database already holds experiences, events or orders; seed an empty database, or pass --reset to empty this one first (accounts included).',
    );
  }

  // Not inTransaction: its retry answers a deadlock with concurrent requests, and nothing
  // else writes while the seed loads an empty database (or one it is emptying), so there is
  // none to break; a rerun would only repeat minutes of bulk work and its progress output.
  await db.transaction().execute(async (trx) => {
    const ctx = seedContext(trx, options);
    // Interval arithmetic on timestamptz follows the session's zone: fix it, so the same
    // seed gives the same rows wherever it runs.
    await ctx.run(`set local timezone = 'UTC'`);
    await ctx.run(`set local work_mem = '256MB'`);
    await ctx.run(`set local maintenance_work_mem = '1GB'`);
    await ctx.run(`set local synchronous_commit = off`);
    if (options.reset) {
      progress.step('emptying the database');
      await ctx.run(`truncate ${ALL_TABLES.join(', ')}`);
      progress.end();
    }
    const detached = await detach(trx, BULK_TABLES);

    progress.step('accounts', options.sellers + options.customers, 'users');
    await createSellers(ctx, settings);
    progress.update(options.sellers);
    await createCustomers(ctx, settings);
    progress.end();

    progress.step('guides, experiences, events');
    await createGuides(ctx);
    await createExperiences(ctx);
    const events = await createEvents(ctx);
    progress.end(`${events.toLocaleString('en-US')} events`);

    progress.step('orders', options.orders, 'orders');
    for (let lo = 0; lo < options.orders; lo += options.batch) {
      const hi = Math.min(options.orders, lo + options.batch);
      await createOrderBatch(ctx, lo, hi);
      progress.update(hi);
    }
    progress.end();

    progress.step('reserved seats');
    await settleEvents(ctx);
    progress.end();

    progress.step('indexes', detached.indexes.length, 'indexes');
    await reattach(trx, detached, (built) => progress.update(built));
    progress.end(`and ${detached.foreignKeys.length} foreign keys`);
    // The work tables belong to the session, which the pool reuses: dropped, or a second
    // seed on this connection fails with "relation s_sellers already exists".
    await ctx.run(`drop table s_events, s_experiences, s_guides, s_customers, s_sellers`);
  });

  progress.step('vacuum analyze');
  for (const table of ['users', ...BULK_TABLES])
    await sql`vacuum analyze ${sql.table(table)}`.execute(db);
  progress.end();

  const { rows } = await sql<SeedSummary['counts'] & { biggest_seller: string }>`
    select (select count(*) from users)::int as users,
           (select count(*) from guides)::int as guides,
           (select count(*) from experiences)::int as experiences,
           (select count(*) from events)::int as events,
           (select count(*) from orders)::int as orders,
           (select count(*) from order_items)::int as order_items,
           (select seller_id from orders group by seller_id
            order by count(*) desc, seller_id limit 1) as biggest_seller`.execute(db);
  const { biggest_seller: biggestSeller, ...counts } = rows[0]!;
  return { options, counts, biggestSeller, milliseconds: Math.round(performance.now() - started) };
}
