/**
 * The scenarios: what is requested, by whom, and what it is compared with.
 *
 * - The spec's order queries for one seller (the one with most orders): an item arrival
 *   window written three equivalent ways, the order arrival on one day, a substring of the
 *   customer's name; an experience's events in a date range; deep paging (each connection
 *   follows paging.next from page 1 to page 500). Their limit: pgbench on the same SQL.
 * - One order by id. Its limit: bare node:http answering a body of the same size; beside
 *   it pgbench on the request's own SQL.
 * - A seller's orders in pages of 100 (the largest page): what 64 of them at once hold in
 *   memory.
 * - Bookings (bookings.ts): spread over many departures, and all aimed at one.
 */
import type { CompiledQuery } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../src/db/database.js';
import type { Caller } from '../src/domain/caller.js';
import type { Credentials } from './accounts.js';
import { api } from './accounts.js';
import { listSql, orderSql, type ListResource } from './list-sql.js';

export interface ListScenario {
  kind: 'list';
  name: string;
  /** Paths requested in turn by every connection. */
  paths: string[];
  apiKey: string;
  /** The SQL of those requests' list queries (pgbench runs them in equal shares). */
  sql: CompiledQuery[];
}

export interface ObjectScenario {
  kind: 'object';
  name: string;
  paths: string[];
  apiKey: string;
  /** The SQL the request runs (pgbench runs it too: what the API adds to the database). */
  sql: CompiledQuery[];
  /** Size of the response body, for the bare node:http baseline. */
  bodyBytes: number;
}

export type ReadScenario = ListScenario | ObjectScenario;

interface ListPage {
  data: { id: string }[];
  paging: { next: string | null };
}

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const encode = (query: Record<string, string>) =>
  Object.entries(query)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');

/** Pages visited when following paging.next from the first page (at most `pages`). */
async function followPages(
  baseUrl: string,
  first: string,
  apiKey: string,
  pages: number,
): Promise<string[]> {
  const paths = [first];
  while (paths.length < pages) {
    const page = await api<ListPage>(baseUrl, 'GET', paths.at(-1)!, apiKey);
    if (!page.paging.next) break;
    paths.push(page.paging.next);
  }
  return paths;
}

const queryOf = (path: string): Record<string, string> =>
  Object.fromEntries(new URL(path, 'http://x').searchParams);

/** The substring of the customer-name scenarios. */
const CONTAINS = 'mart';

/**
 * The seller in the middle of the sellers by orders (the floor's "median seller", issue 27)
 * and its orders.
 */
export async function medianSeller(db: Db): Promise<{ id: string; orders: number }> {
  const { rows } = await sql<{ id: string; orders: number }>`
    select seller_id as id, count(*)::int as orders from orders group by seller_id
    order by count(*), seller_id
    offset (select count(distinct seller_id) / 2 from orders) limit 1`.execute(db);
  return rows[0]!;
}

/**
 * The spec's order queries of `seller` as paths: its orders with an item in a 3-day window
 * from the median arrival of its items, and a substring of its customers' names.
 */
export async function sellerQuestions(
  db: Db,
  seller: string,
): Promise<{ window: string; contains: string }> {
  const { rows } = await sql<{ day: string }>`
    select (percentile_disc(0.5) within group (order by arrival))::text as day
    from order_items where seller_id = ${seller}`.execute(db);
  const day = rows[0]!.day;
  const window = `${day},${addDays(day, 2)}`;
  return {
    window: `/api/orders?${encode({ seller, 'items.arrival[range]': window })}`,
    contains: `/api/orders?${encode({ seller, 'customerName[contains]': CONTAINS })}`,
  };
}

export async function readScenarios(
  db: Db,
  baseUrl: string,
  credentials: Credentials,
  deepPages: number,
): Promise<ReadScenario[]> {
  const seller = credentials.sellerId;
  const { rows: picked } = await sql<{ day: string; experience: string; order_id: string }>`
    select (select percentile_disc(0.5) within group (order by arrival)
            from order_items where seller_id = ${seller})::text as day,
           (select experience_id from events where seller_id = ${seller}
            group by experience_id order by count(*) desc, experience_id limit 1) as experience,
           (select order_id from order_items where seller_id = ${seller}
            group by order_id having count(*) = 2 order by order_id desc limit 1) as order_id
  `.execute(db);
  const { day: d1, experience, order_id: orderId } = picked[0]!;
  const [d2, d3] = [addDays(d1, 1), addDays(d1, 2)];
  const { rows: span } = await sql<{ first: Date; last: Date }>`
    select min(starts_at) as first, max(starts_at) as last from events
    where experience_id = ${experience}`.execute(db);
  // The middle half of the experience's two years of departures.
  const first = span[0]!.first.getTime();
  const quarter = (span[0]!.last.getTime() - first) / 4;
  const startRange = [first + quarter, first + 3 * quarter]
    .map((t) => new Date(t).toISOString().replace('.000Z', 'Z'))
    .join(',');

  const sellerCaller: Caller = {
    id: seller,
    name: '',
    email: '',
    roles: ['ROLE_SELLER'],
    apiVersion: '',
    delegations: new Map(),
  };
  const adminCaller: Caller = {
    id: '',
    name: '',
    email: '',
    roles: ['ROLE_ADMIN'],
    apiVersion: '',
    delegations: new Map(),
  };
  const lists: [string, ListResource, Record<string, string>][] = [
    ['orders items.arrival[range]', 'orders', { seller, 'items.arrival[range]': `${d1},${d3}` }],
    [
      'orders items.arrival[gte]&[lte]',
      'orders',
      { seller, 'items.arrival[gte]': d1, 'items.arrival[lte]': d3 },
    ],
    ['orders items.arrival[in]', 'orders', { seller, 'items.arrival[in]': `${d1},${d2},${d3}` }],
    ['orders arrival=d', 'orders', { seller, arrival: d2 }],
    ['orders customerName[contains]', 'orders', { seller, 'customerName[contains]': CONTAINS }],
    ['events experience&start[range]', 'events', { experience, 'start[range]': startRange }],
    // The memory scenario: the largest pages the API gives, newest first.
    ['orders 100-row pages', 'orders', { seller, limit: '100' }],
  ];
  const scenarios: ReadScenario[] = [];
  for (const [name, resource, query] of lists) {
    scenarios.push({
      kind: 'list',
      name,
      paths: [`/api/${resource}?${encode(query)}`],
      apiKey: credentials.sellerKey,
      sql: [await listSql(db, resource, sellerCaller, query)],
    });
  }

  const pages = await followPages(baseUrl, '/api/orders?limit=20', credentials.adminKey, deepPages);
  // pgbench runs every 50th page's SQL (keyset pages all cost about the same).
  const sampled = pages.filter((_, i) => i % 50 === 49 || i === 0);
  const pageSql: CompiledQuery[] = [];
  for (const page of sampled) pageSql.push(await listSql(db, 'orders', adminCaller, queryOf(page)));
  scenarios.push({
    kind: 'list',
    name: `orders paging to page ${pages.length}`,
    paths: pages,
    apiKey: credentials.adminKey,
    sql: pageSql,
  });

  const one = `/api/orders/${orderId}`;
  const body = await fetch(`${baseUrl}${one}`, { headers: { 'x-api-key': credentials.sellerKey } });
  scenarios.push({
    kind: 'object',
    name: 'GET /api/orders/{id}',
    paths: [one],
    apiKey: credentials.sellerKey,
    sql: await orderSql(orderId),
    bodyBytes: (await body.arrayBuffer()).byteLength,
  });
  return scenarios;
}
