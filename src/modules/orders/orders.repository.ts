/** All SQL on orders and order items. */
import { sql, type Insertable, type Kysely } from 'kysely';
import { listSource } from '../../db/list-source.js';
import type { DB, OrderItemsTable, OrdersTable } from '../../db/types.js';
import type { ListSource } from '../../query/run.js';
import type { ItemJson, OrderItemRow, OrderRow } from './orders.schemas.js';

/** An order row with its items as JSON (item rows with timestamps as strings). */
export type OrderWithItems = OrderRow & { items: ItemJson[] };

const itemsJson = sql<
  ItemJson[]
>`coalesce((select json_agg(i order by i.id) from order_items i where i.order_id = o.id), '[]'::json)`.as(
  'items',
);

export function ordersRepository(db: Kysely<DB>) {
  return {
    /** A page of orders, each with its items: one round trip per page. */
    listSource(): ListSource<OrderWithItems> {
      return listSource(
        () => db.selectFrom('orders as o'),
        (q) => q.selectAll('o').select(itemsJson),
      );
    },

    async findWithItems(id: string): Promise<OrderWithItems | undefined> {
      return db
        .selectFrom('orders as o')
        .selectAll('o')
        .select(itemsJson)
        .where('o.id', '=', id)
        .executeTakeFirst();
    },

    async insert(
      order: Insertable<OrdersTable>,
      items: Insertable<OrderItemsTable>[],
    ): Promise<void> {
      await db.insertInto('orders').values(order).execute();
      await db.insertInto('order_items').values(items).execute();
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

    async markCanceled(id: string): Promise<void> {
      await db
        .updateTable('orders')
        .set({ status: 'canceled', updated_at: new Date() })
        .where('id', '=', id)
        .execute();
      await db.updateTable('order_items').set({ status: 700 }).where('order_id', '=', id).execute();
    },

    /** Items of several orders at once, grouped by order id, in a stable order. */
    async itemsOf(orderIds: string[]): Promise<Map<string, OrderItemRow[]>> {
      const byOrder = new Map<string, OrderItemRow[]>(orderIds.map((id) => [id, []]));
      if (orderIds.length === 0) return byOrder;
      const rows = await db
        .selectFrom('order_items')
        .selectAll()
        .where('order_id', 'in', orderIds)
        .orderBy('id')
        .execute();
      for (const row of rows) byOrder.get(row.order_id)?.push(row);
      return byOrder;
    },
  };
}
