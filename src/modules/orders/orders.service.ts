/** Orders: listing for now (booking and cancelling arrive with the booking rules). */
import type { Db } from '../../db/database.js';
import { runList } from '../../query/run.js';
import { accessFor } from '../access/access.js';
import { listScopes } from '../access/list-scopes.js';
import type { Caller } from '../users/caller.js';
import { toOrderView, type OrderRow, type OrderView } from './orders.mapper.js';
import { orderSpec } from './orders.query.js';
import { ordersRepository } from './orders.repository.js';

export function ordersService({ db }: { db: Db }) {
  const repo = ordersRepository(db);

  async function views(rows: OrderRow[]): Promise<OrderView[]> {
    const items = await repo.itemsOf(rows.map((r) => r.id));
    return rows.map((row) => toOrderView(row, items.get(row.id) ?? []));
  }

  return {
    list: async (caller: Caller, query: Record<string, unknown>) =>
      runList(
        orderSpec,
        { path: '/api/orders', query, scope: await listScopes.orders(accessFor(db, caller)) },
        repo.listSource(),
        views,
      ),
  };
}

export type OrdersService = ReturnType<typeof ordersService>;
