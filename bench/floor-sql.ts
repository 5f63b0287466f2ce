/**
 * The floor server's statements (bench/floor-server.ts): for each read the bench asks, one
 * hand-written statement whose single text column is the whole response body, as
 * PostgreSQL builds it (bench/floor-views.ts). The list filters the bench uses are read off
 * the query by hand (a floor answers its known questions, nothing else); each becomes the
 * condition the best plan wants, the ones our query compiler writes: item filters in one
 * EXISTS over the seller's items, a seller's `contains` as a row check, keyset paging by
 * creation order. `paging.next` is our own link (src/query/paging.ts) with the page's last
 * id, joined in SQL. No authentication: the seller filter names the rows.
 */
import type { QueryPlan } from '../src/query/types.js';
import { linkTemplate } from '../src/query/paging.js';
import { eventJson, orderJson } from './floor-views.js';

export interface Statement {
  text: string;
  values: unknown[];
}

const DEFAULT_LIMIT = 20;

/** A filter of the query: adds its conditions (on the row, on its items), binding values. */
type Filter = (value: string, bind: (value: unknown) => string, at: Conditions) => void;
interface Conditions {
  row: string[];
  /** Item filters: one EXISTS over the items, when there is any. */
  items: string[];
  /** Row conditions repeated on the items' copies (seller_id), for their indexes only. */
  copied: string[];
}

const ORDER_FILTERS: Record<string, Filter> = {
  seller: (v, bind, at) => {
    const seller = bind(v);
    at.row.push(`o.seller_id = ${seller}`);
    at.copied.push(`i.seller_id = ${seller}`);
  },
  arrival: (v, bind, at) => void at.row.push(`o.arrival = ${bind(v)}`),
  'customerName[contains]': (v, bind, at) =>
    void at.row.push(
      `strpos(lower(o.customer_name collate "und-x-icu"), ${bind(v.toLowerCase())}) > 0`,
    ),
  'items.arrival[range]': (v, bind, at) => {
    const [from, to] = v.split(',');
    at.items.push(`i.arrival between ${bind(from)} and ${bind(to)}`);
  },
  'items.arrival[gte]': (v, bind, at) => void at.items.push(`i.arrival >= ${bind(v)}`),
  'items.arrival[lte]': (v, bind, at) => void at.items.push(`i.arrival <= ${bind(v)}`),
  'items.arrival[in]': (v, bind, at) =>
    void at.items.push(`i.arrival = any(${bind(v.split(','))}::date[])`),
  // Creation order: before the named order, or before the second its id begins with.
  'id[lt]': (v, bind, at) => {
    const id = bind(v);
    at.row.push(
      `(o.created_at, o.id) < (coalesce((select a.created_at from orders a where a.id = ${id}), to_timestamp(('x' || lpad(substr(${id}, 1, 8), 16, '0'))::bit(64)::bigint)), ${id})`,
    );
  },
};

const EVENT_FILTERS: Record<string, Filter> = {
  experience: (v, bind, at) => void at.row.push(`e.experience_id = ${bind(v)}`),
  'start[range]': (v, bind, at) => {
    const [from, to] = v.split(',');
    at.row.push(`e.starts_at between ${bind(from)}::timestamptz and ${bind(to)}::timestamptz`);
  },
};

/** Reads the query with `filters`; what the floor does not know is refused. */
function conditions(filters: Record<string, Filter>, query: Record<string, string>) {
  const values: unknown[] = [];
  const bind = (value: unknown) => `$${values.push(value)}`;
  const at: Conditions = { row: [], items: [], copied: [] };
  for (const [key, value] of Object.entries(query)) {
    if (key === 'limit') continue;
    const filter = filters[key];
    if (!filter || typeof value !== 'string') throw new Error(`the floor does not answer ${key}`);
    filter(value, bind, at);
  }
  const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
  return { values, bind, at, limit };
}

/**
 * A page: `limit + 1` rows by creation order newest first (the extra one says whether
 * there is a next page), the first `limit` as `data`, and `paging.next` from the last one.
 */
function page(
  path: string,
  query: Record<string, string>,
  filters: Record<string, Filter>,
  table: string,
  alias: string,
  json: string,
  join = '',
): Statement {
  const { values, bind, at, limit } = conditions(filters, query);
  if (at.items.length > 0)
    at.row.push(
      `exists (select 1 from order_items i where i.order_id = ${alias}.id and ${[...at.items, ...at.copied].join(' and ')})`,
    );
  const plan = { keyset: true, limit, skip: 0 } as QueryPlan;
  const { head: prefix, tail: suffix } = linkTemplate(path, query, plan);
  const order = `${alias}.created_at desc, ${alias}.id desc`;
  const n = bind(limit);
  const text = `with page as (select ${alias}.* from ${table} ${alias}
    where ${at.row.join(' and ') || 'true'} order by ${order} limit ${n}::int + 1)
  select json_build_object(
    'data', coalesce((select json_agg(${json} order by ${order})
      from (select * from page ${alias} order by ${order} limit ${n}::int) ${alias}${join}), '[]'::json),
    'paging', json_build_object('next', case when (select count(*) from page) > ${n}::int
      then ${bind(prefix)}::text || (select id from page ${alias} order by ${order} offset ${n}::int - 1 limit 1) || ${bind(suffix)}::text end)
  )::text as body`;
  return { text, values };
}

export const orderListStatement = (query: Record<string, string>): Statement =>
  page('/api/orders', query, ORDER_FILTERS, 'orders', 'o', orderJson);

export const eventListStatement = (query: Record<string, string>): Statement =>
  page(
    '/api/events',
    query,
    EVENT_FILTERS,
    'events',
    'e',
    eventJson,
    ' join experiences x on x.id = e.experience_id',
  );

export const orderStatement = (id: string): Statement => ({
  text: `select ${orderJson}::text as body from orders o where o.id = $1`,
  values: [id],
});
