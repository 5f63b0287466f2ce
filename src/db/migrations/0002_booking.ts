/**
 * Experiences, events, orders and order items, with an index for every filterable field.
 *
 * - Text that is filtered by substring has a trigram GIN index (`pg_trgm`), which serves
 *   ILIKE '%…%', 'abc%' and '%abc' alike.
 * - GIN indexes queue inserts in a "pending list" that every search scans in full and that
 *   the planner counts in the index's cost: at the default 4 MB limit a trigram search on
 *   orders pays up to ~20 ms for it, and on experiences (which rarely reach 4 MB, so the
 *   list is never merged) the planner prefers a sequential scan. Rarely written tables turn
 *   the list off; orders keep a small one (256 kB), so a booking still batches its index
 *   work (turning it off costs ~0.3 ms per order insert) and a search pays at most ~1 ms.
 * - `seller_id` is copied onto order items, and items are indexed on
 *   `(seller_id, arrival, order_id)`: a seller's "orders arriving between d1 and d3" is then
 *   one index range scan instead of probing the items of every order. `customer_id` is
 *   copied too, so a seller's own scope (seller OR customer) still reaches items by index.
 * - Sortable and filterable text is `collate "C"`: byte order, the same on every server.
 * - Timestamps have millisecond precision, so a value a client read back filters exactly.
 * - `events.reserved <= max` is a constraint: even a bug cannot oversell.
 */
import { sql, type Kysely } from 'kysely';

const ID = sql`text collate "C" not null check (id ~ '^[0-9a-f]{24}$')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const run = (query: ReturnType<typeof sql>) => query.execute(db);

  await run(sql`create extension if not exists pg_trgm`);

  await run(sql`
    create table experiences (
      id ${ID} primary key,
      seller_id text collate "C" not null references users (id),
      name text collate "C" not null,
      description text not null default '',
      price numeric(12, 2) not null check (price >= 0),
      price_type text collate "C" not null check (price_type in ('person', 'outing')),
      currency text collate "C" not null check (currency ~ '^[A-Z]{3}$'),
      duration integer not null check (duration > 0),
      timezone text not null default 'UTC',
      order_min integer check (order_min >= 1),
      order_max integer check (order_max >= 1),
      outing_max integer check (outing_max >= 0),
      schedules jsonb not null default '[]'::jsonb,
      visible boolean not null default true,
      guide jsonb,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`);
  await run(sql`create index experiences_seller_id on experiences (seller_id, id)`);
  await run(
    sql`create index experiences_name_trgm on experiences using gin (name gin_trgm_ops) with (fastupdate = off)`,
  );
  await run(sql`create index experiences_name on experiences (name)`);
  await run(sql`create index experiences_price on experiences (price)`);
  await run(sql`create index experiences_price_type on experiences (price_type, id)`);
  await run(sql`create index experiences_currency on experiences (currency, id)`);
  await run(sql`create index experiences_duration on experiences (duration)`);
  await run(sql`create index experiences_visible on experiences (visible, id)`);
  await run(sql`create index experiences_created_at on experiences (created_at)`);

  await run(sql`
    create table events (
      id ${ID} primary key,
      experience_id text collate "C" not null references experiences (id),
      seller_id text collate "C" not null references users (id),
      starts_at timestamptz(3) not null,
      ends_at timestamptz(3) not null,
      max integer check (max >= 0),
      reserved integer not null default 0 check (reserved >= 0),
      guide_ids text[] collate "C" not null default '{}',
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now(),
      constraint events_experience_start unique (experience_id, starts_at),
      constraint events_no_oversell check (max is null or reserved <= max),
      check (ends_at >= starts_at)
    )`);
  await run(sql`create index events_seller_start on events (seller_id, starts_at)`);
  await run(sql`create index events_seller_id on events (seller_id, id)`);
  await run(sql`create index events_starts_at on events (starts_at)`);
  await run(sql`create index events_ends_at on events (ends_at)`);
  await run(sql`create index events_max on events (max)`);
  await run(sql`create index events_open on events ((max - reserved))`);
  await run(
    sql`create index events_guide_ids on events using gin (guide_ids) with (fastupdate = off)`,
  );
  await run(sql`create index events_created_at on events (created_at)`);

  await run(sql`
    create table orders (
      id ${ID} primary key,
      seller_id text collate "C" not null references users (id),
      customer_id text collate "C" references users (id),
      customer_name text collate "C" not null,
      customer_email text collate "C",
      status text collate "C" not null check (status in ('confirmed', 'canceled')),
      arrival date not null,
      amount numeric(12, 2) not null check (amount >= 0),
      currency text collate "C" not null,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`);
  await run(sql`create index orders_seller_id on orders (seller_id, id)`);
  await run(sql`create index orders_seller_arrival on orders (seller_id, arrival)`);
  await run(sql`create index orders_customer_id on orders (customer_id, id)`);
  await run(sql`create index orders_customer_name on orders (customer_name)`);
  await run(
    sql`create index orders_customer_name_trgm on orders using gin (customer_name gin_trgm_ops) with (gin_pending_list_limit = 256)`,
  );
  await run(sql`create index orders_customer_email on orders (customer_email)`);
  await run(
    sql`create index orders_customer_email_trgm on orders using gin (customer_email gin_trgm_ops) with (gin_pending_list_limit = 256)`,
  );
  await run(sql`create index orders_status on orders (status, id)`);
  await run(sql`create index orders_arrival on orders (arrival)`);
  await run(sql`create index orders_amount on orders (amount)`);
  await run(sql`create index orders_created_at on orders (created_at)`);
  await run(sql`create index orders_updated_at on orders (updated_at)`);

  await run(sql`
    create table order_items (
      id ${ID} primary key,
      order_id text collate "C" not null references orders (id) on delete cascade,
      seller_id text collate "C" not null,
      customer_id text collate "C",
      experience_id text collate "C" not null references experiences (id),
      event_id text collate "C" not null references events (id),
      name text not null,
      arrival date not null,
      arrival_time integer not null check (arrival_time between 0 and 2359),
      arrival_datetime timestamptz(3) not null,
      timezone text not null,
      quantity integer not null check (quantity > 0),
      price numeric(12, 2) not null,
      amount numeric(12, 2) not null,
      status integer not null check (status in (200, 700))
    )`);
  await run(sql`create index order_items_order_id on order_items (order_id)`);
  await run(
    sql`create index order_items_seller_arrival on order_items (seller_id, arrival, order_id)`,
  );
  await run(
    sql`create index order_items_customer_arrival on order_items (customer_id, arrival, order_id)`,
  );
  await run(sql`create index order_items_arrival on order_items (arrival, order_id)`);
  await run(sql`create index order_items_arrival_time on order_items (arrival_time, order_id)`);
  await run(sql`create index order_items_experience on order_items (experience_id, order_id)`);
  await run(sql`create index order_items_event on order_items (event_id, order_id)`);
  await run(sql`create index order_items_quantity on order_items (quantity, order_id)`);
  await run(sql`create index order_items_status on order_items (status, order_id)`);
}
