/**
 * Creation order (docs/decisions/creation-order.md): lists follow `(created_at, id)`, not the
 * id alone (an id holds only its creation second before 64 random bits).
 *
 * - Every index that served the default order as `(x, id)` becomes `(x, created_at, id)`,
 *   and the plain `created_at` indexes `(created_at, id)`, so a page newest first and a
 *   keyset page (`id[lt]`) are still one index range walk.
 * - `order_items.position`: an order's items in the order they were booked (a change adds
 *   its new items after the others). Items made before have no record of that order; they
 *   are numbered by id, which is their creation second (random within it).
 */
import { sql, type Kysely } from 'kysely';

/** [table, old index, new index, leading column or none] */
const REPLACED: [string, string, string, string | null][] = [
  ['orders', 'orders_seller_id', 'orders_seller_created', 'seller_id'],
  ['orders', 'orders_customer_id', 'orders_customer_created', 'customer_id'],
  ['orders', 'orders_status', 'orders_status_created', 'status'],
  ['orders', 'orders_created_at', 'orders_created', null],
  ['experiences', 'experiences_seller_id', 'experiences_seller_created', 'seller_id'],
  ['experiences', 'experiences_price_type', 'experiences_price_type_created', 'price_type'],
  ['experiences', 'experiences_currency', 'experiences_currency_created', 'currency'],
  ['experiences', 'experiences_visible', 'experiences_visible_created', 'visible'],
  ['experiences', 'experiences_created_at', 'experiences_created', null],
  ['events', 'events_seller_id', 'events_seller_created', 'seller_id'],
  ['events', 'events_created_at', 'events_created', null],
  ['guides', 'guides_seller_id', 'guides_seller_created', 'seller_id'],
  ['guides', 'guides_created_at', 'guides_created', null],
  ['webhook_deliveries', 'webhook_deliveries_hook', 'webhook_deliveries_hook_created', 'hook_id'],
  ['publishable_keys', 'publishable_keys_seller', 'publishable_keys_seller_created', 'seller_id'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const run = (query: ReturnType<typeof sql>) => query.execute(db);

  for (const [table, old, index, leading] of REPLACED) {
    const columns =
      leading === null ? sql`created_at, id` : sql`${sql.ref(leading)}, created_at, id`;
    await run(sql`create index ${sql.id(index)} on ${sql.table(table)} (${columns})`);
    await run(sql`drop index ${sql.id(old)}`);
  }

  // Written by every booking and change; 0 only for a writer that predates this column (a
  // rolling deploy runs both releases for a while): such items sort first, then by id.
  await run(sql`alter table order_items add column position integer not null default 0`);
  await run(sql`
    update order_items i set position = r.n
      from (select id, (row_number() over (partition by order_id order by id) - 1)::integer as n
              from order_items) r
     where r.id = i.id and r.n <> 0`);
}
