/**
 * Reading orders: one by id (its customer, the seller's staff, admins; 404 for anyone else)
 * and lists in the query language, scoped to what the caller may see, with `search=` over
 * codes, names and emails, and the pollers' horizon when a list is read past an `updatedAt`.
 */
import { pollHorizon } from '../../db/poll-horizon.js';
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { notFound } from '../../domain/errors.js';
import { jsonPage } from '../../http/json-text.js';
import { runList, type ListSource } from '../../query/run.js';
import type { Scope } from '../../query/types.js';
import { searchTerm, withoutSearch } from './order-search.js';
import { maySee, type OrdersContext } from './orders.context.js';
import { orderList } from './orders.list.js';
import { ordersRepository, type OrderWithItems } from './orders.repository.js';
import { itemFromJson, toOrderView, type OrderView } from './orders.schemas.js';

const view = (row: OrderWithItems): OrderView =>
  toOrderView(row, row.items.map(itemFromJson), row.guests);

/** What a caller sees in the list: the orders it booked, and those of sellers it staffs. */
export function ordersScope(caller: Caller): Scope {
  const sellers = accessOf(caller).sellersFor('orders');
  if (sellers === 'all') return 'all';
  return {
    anyOf: [
      { field: 'seller', in: sellers },
      { field: 'customer', in: [caller.id] },
    ].filter((a) => a.in.length > 0),
  };
}

/**
 * A page as objects, for older versions and `expand=` to transform: the latest version's
 * JSON that PostgreSQL built, parsed (the same value as `toOrderView`'s, which
 * test/http/order-json.test.ts holds them to), so both renderings share one page query and
 * its byte budget.
 */
export async function list(ctx: OrdersContext, caller: Caller, query: Record<string, unknown>) {
  const page = await listWith(ctx, caller, query, (search) =>
    ordersRepository(ctx.db).jsonListSource(search),
  );
  return { ...page, data: page.data.map((row) => JSON.parse(row.json) as OrderView) };
}

/** The same page as `list`, as the bytes of the latest version's JSON that PostgreSQL built. */
export async function listJson(
  ctx: OrdersContext,
  caller: Caller,
  query: Record<string, unknown>,
): Promise<Buffer> {
  const page = await listWith(ctx, caller, query, (search) =>
    ordersRepository(ctx.db).jsonListSource(search),
  );
  return jsonPage({ ...page, data: page.data.map((row) => row.json) });
}

/** A page of rows from `source`, with `search=` taken out of the query language's filters. */
function listWith<Row extends { id: string }>(
  ctx: OrdersContext,
  caller: Caller,
  query: Record<string, unknown>,
  source: (search: string | undefined) => ListSource<Row>,
) {
  const search = query.search === undefined ? undefined : searchTerm(query.search);
  return runList(
    orderList,
    {
      path: '/api/orders',
      query: search === undefined ? query : withoutSearch(query),
      scope: ordersScope(caller),
      linkQuery: query,
      horizon: { field: 'updatedAt', at: () => pollHorizon(ctx.db, ctx.pollMarginMs) },
    },
    source(search),
    (rows) => rows,
  );
}

export async function get(ctx: OrdersContext, caller: Caller, id: string): Promise<OrderView> {
  const order = await ordersRepository(ctx.db).findWithItems(id);
  if (!order || !maySee(accessOf(caller), order)) throw notFound(`Order ${id}`);
  return view(order);
}

/** The same order as `get`, as the latest version's JSON text built by PostgreSQL. */
export async function getJson(ctx: OrdersContext, caller: Caller, id: string): Promise<string> {
  const order = await ordersRepository(ctx.db).findJson(id);
  if (!order || !maySee(accessOf(caller), order)) throw notFound(`Order ${id}`);
  return order.json;
}
