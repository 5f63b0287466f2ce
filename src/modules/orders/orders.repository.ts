/** All SQL on orders and order items (their guests' in guests.repository.ts, but for reads). */
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { statement } from '../../db/statement-template.js';
import { touchedAt } from '../../db/creation-clock.js';
import { countOf, pageOf, textListSource, viewedPage } from '../../db/list-source.js';
import { prepared } from '../../db/prepared.js';
import { insertRows } from '../../db/write-batch.js';
import type { DB } from '../../db/types.js';
import { fold, foldSql } from '../../query/fold.js';
import { likePattern } from '../../query/operators.js';
import type { ListSource } from '../../query/run.js';
import type { GuestFacts } from './guests.js';
import { orderJson } from './order-json.js';
import type { ItemJson, OrderItemRow, OrderRow } from './orders.schemas.js';
import { readRows } from '../../db/direct-read.js';

/** The jsonb columns are written as JSON text. */
const orderValues = (order: OrderRow) => ({
  ...order,
  notes: JSON.stringify(order.notes),
  adjustments: JSON.stringify(order.adjustments),
});
const itemValues = (item: OrderItemRow) => ({
  ...item,
  demographics: JSON.stringify(item.demographics),
});

/**
 * `search=` (order-search.ts): the booking codes exactly (the short code in capitals, a
 * ticket code in lowercase hex; both indexed), the customer's name and email as substrings
 * under the Unicode case fold (the trigram indexes). `rank` puts exact code matches first.
 */
function orderSearch(term: string): { where: RawBuilder<SqlBool>; rank: RawBuilder<number> } {
  const shortCode = term.toUpperCase();
  const ticketCode = term.toLowerCase();
  const pattern = likePattern(fold(term), 'anywhere');
  // One indexed lookup per way of matching, joined: an OR over the row would make the
  // planner read every order in scope (an admin's: the whole table).
  const matching = sql`(
    select id from orders where short_code = ${shortCode}
    union all select order_id from order_items where ticket_code = ${ticketCode}
    union all select id from orders where ${foldSql(sql.ref('customer_name'))} like ${pattern}
    union all select id from orders where ${foldSql(sql.ref('customer_email'))} like ${pattern})`;
  return {
    where: sql<SqlBool>`o.id in ${matching}`,
    rank: sql<number>`(case when o.short_code = ${shortCode} or o.id in (select order_id from order_items where ticket_code = ${ticketCode}) then 0 else 1 end)`,
  };
}

/** An order row with its items as JSON (item rows with timestamps as strings), and live guests. */
export type OrderWithItems = OrderRow & { items: ItemJson[]; guests: GuestFacts[] };

/** Items in booking order (item-order.ts); the id orders items written before positions. */
const itemsJson = sql<
  ItemJson[]
>`coalesce((select json_agg(i order by i.position, i.id) from order_items i where i.order_id = o.id), '[]'::json)`.as(
  'items',
);

/** The order's live guests, what its view shows of them (order_guests_order). */
const guestsJson = sql<GuestFacts[]>`coalesce((select json_agg(g order by g.position, g.id) from (
    select id, item_id, demographic_id, ticket_code, status, position from order_guests
     where order_id = o.id and canceled_at is null) g), '[]'::json)`.as('guests');

/** One order by id with its items and guests: SQL compiled once, only the id bound. */
const orderById = statement((db, v: { id: string }) =>
  db
    .selectFrom('orders as o')
    .selectAll('o')
    .select([itemsJson, guestsJson])
    .where('o.id', '=', v.id),
);

/** The order's view as JSON text (order-json.ts): sent as it is, never parsed. */
const orderJsonColumn = sql<string>`(${sql.raw(orderJson)})::text`.as('json');

/** One order by id as its view's JSON text, with what access is decided on. */
const orderJsonById = statement((db, v: { id: string }) =>
  db
    .selectFrom('orders as o')
    .select(['o.seller_id', 'o.customer_id', orderJsonColumn])
    .where('o.id', '=', v.id),
);

/** A list of orders narrowed to those `search=` finds, exact code matches first. */
function searched<Row>(plain: ListSource<Row>, search: string): ListSource<Row> {
  const { where, rank } = orderSearch(search);
  return {
    ...plain,
    rows: (q) =>
      plain.rows({
        ...q,
        where: sql<SqlBool>`(${q.where} and ${where})`,
        orderBy: sql`${rank}, ${q.orderBy}`,
        prepare: false, // its substring matches: a plan per pattern
      }),
    count: (q) => plain.count(sql<SqlBool>`(${q} and ${where})`),
  };
}

/** An order's view as JSON text, and the columns `maySee` reads. */
export type OrderJson = Pick<OrderRow, 'seller_id' | 'customer_id'> & { json: string };

export function ordersRepository(db: Kysely<DB>) {
  return {
    /**
     * A page of orders, each as its view's JSON text (order-json.ts), ended at the page's byte
     * budget (db/page-budget.ts): one round trip per page; `search` ranks.
     */
    jsonListSource(search?: string): ListSource<{ id: string; json: string }> {
      const base = () => db.selectFrom('orders as o');
      const plain = textListSource(
        db,
        (q) => viewedPage(db, pageOf(base().selectAll('o'), q), 'o', orderJson, q),
        countOf(base),
        'orders-json',
      );
      return search === undefined ? plain : searched(plain, search);
    },

    async findWithItems(id: string): Promise<OrderWithItems | undefined> {
      // A primary key's lookup: one plan whatever the id (db/prepared.ts).
      return (await readRows(db, prepared(orderById(db, { id }))))[0];
    },

    /** One order's view as JSON text, built by PostgreSQL (order-json.ts). */
    async findJson(id: string): Promise<OrderJson | undefined> {
      return (await readRows(db, prepared(orderJsonById(db, { id }))))[0];
    },

    /**
     * Inserts a new order as it is, its short code included: with the rest of an open write
     * batch (db/write-batch.ts). A code the seller already has fails the statement (the
     * unique index `orders_short_code`); the booking is then made again with another.
     */
    async insert(order: OrderRow): Promise<void> {
      await insertRows(db, 'orders', [orderValues(order)]);
    },

    async insertItems(items: readonly OrderItemRow[]): Promise<void> {
      await insertRows(db, 'order_items', items.map(itemValues));
    },

    /** Writes an order's changed fields (all but its identity). */
    async update(order: OrderRow): Promise<void> {
      const { id, seller_id: _seller, created_at: _created, ...changes } = orderValues(order);
      await db.updateTable('orders').set(changes).where('id', '=', id).execute();
    },

    /** Writes an item's changed fields (all but its identity and its place in the order). */
    async updateItem(item: OrderItemRow): Promise<void> {
      const { id, order_id: _order, position: _position, ...changes } = itemValues(item);
      await db.updateTable('order_items').set(changes).where('id', '=', id).execute();
    },

    /** Orders whose holds are past their deadline, oldest first (each is locked and checked again). */
    async holdsDue(now: Date, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('orders')
        .select('id')
        .where('hold_expires_at', '<=', now)
        .orderBy('hold_expires_at')
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },

    async hasCustomerAtSeller(customerId: string, sellerId: string): Promise<boolean> {
      const row = await db
        .selectFrom('orders')
        .select('id')
        .where('customer_id', '=', customerId)
        .where('seller_id', '=', sellerId)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    async findById(id: string): Promise<OrderRow | undefined> {
      return db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Reads an order and locks it until the transaction ends (cancel takes this lock). */
    async lock(id: string): Promise<OrderRow | undefined> {
      return db
        .selectFrom('orders')
        .selectAll()
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
    },

    /**
     * Moves an order's `updatedAt` for a change made outside its row (its guests' statuses),
     * so pollers of `updatedAt` and readers of `order.update` see it; the order is locked.
     */
    async touch(id: string, at: Date): Promise<void> {
      await db
        .updateTable('orders')
        .set({ updated_at: touchedAt('orders', at) })
        .where('id', '=', id)
        .execute();
    },

    async markCanceled(id: string): Promise<void> {
      await db
        .updateTable('orders')
        .set({ status: 'canceled', hold_expires_at: null, updated_at: touchedAt('orders') })
        .where('id', '=', id)
        .execute();
      await db.updateTable('order_items').set({ status: 700 }).where('order_id', '=', id).execute();
    },

    /** Items of several orders at once, grouped by order id, in booking order. */
    async itemsOf(orderIds: string[]): Promise<Map<string, OrderItemRow[]>> {
      const byOrder = new Map<string, OrderItemRow[]>(orderIds.map((id) => [id, []]));
      if (orderIds.length === 0) return byOrder;
      const rows = await db
        .selectFrom('order_items')
        .selectAll()
        .where('order_id', 'in', orderIds)
        .orderBy('position')
        .orderBy('id')
        .execute();
      for (const row of rows) byOrder.get(row.order_id)?.push(row);
      return byOrder;
    },
  };
}
