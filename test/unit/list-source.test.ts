/**
 * Page queries compiled once per shape (db/list-source.ts): through one handle, every
 * request sends exactly the SQL and values a fresh compilation sends, whether its shape was
 * cached (the second of a shape) or not (searches, scopes, keyset pages, `in` lists), for
 * each source that caches: orders as rows, orders as JSON text, and events.
 */
import { describe, expect, it } from 'vitest';
import { pageOf } from '../../src/db/list-source.js';
import { createQueryRecorder } from '../../src/db/query-recorder.js';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/types.js';
import { eventsRepository } from '../../src/modules/events/events.repository.js';
import { eventList } from '../../src/modules/events/events.list.js';
import { ordersRepository } from '../../src/modules/orders/orders.repository.js';
import { orderList } from '../../src/modules/orders/orders.list.js';
import { compile } from '../../src/query/compile.js';
import { parse } from '../../src/query/parse.js';
import { plan } from '../../src/query/plan.js';
import type { ListSource } from '../../src/query/run.js';
import type { ResourceSpec, Scope } from '../../src/query/types.js';

const A = 'a'.repeat(24);
const B = 'b'.repeat(24);
const seller: Scope = { anyOf: [{ field: 'seller', in: [A] }] };

type Request = [Record<string, string>, Scope, string?];
const orderRequests: Request[] = [
  [{ seller: A, 'items.arrival[range]': '2030-01-01,2030-01-03' }, seller],
  [{ seller: A, 'items.arrival[range]': '2030-04-01,2030-04-09' }, seller],
  [{ seller: B, 'items.arrival[range]': '2030-04-01,2030-04-09' }, seller],
  [{ seller: A, 'customerName[contains]': 'mart' }, seller],
  [{ seller: A, 'customerName[contains]': 'zoë' }, seller],
  [{ 'items.arrival[in]': '2030-01-01,2030-01-02' }, 'all'],
  [{ 'items.arrival[in]': '2030-01-01,2030-01-02,2030-01-05' }, 'all'],
  [{ 'items.arrival[in]': '2030-02-01,2030-02-02' }, 'all'],
  [{ 'id[lt]': A, limit: '5' }, seller],
  [{ 'id[lt]': B, limit: '7' }, seller],
  // Past ONE_ROW_AT_MOST: the JSON text source's pages of a row per order.
  [{ 'id[lt]': B, limit: '50' }, seller],
  [{ 'id[lt]': A, limit: '100' }, seller],
  [{ sort: '-createdAt', skip: '20' }, seller, 'Zoë'],
  [{ sort: '-createdAt', skip: '40' }, seller, 'KX7Q'],
  [{ 'customerEmail[exists]': 'true' }, 'all'],
  [{ 'customerEmail[exists]': 'false' }, 'all'],
];

const eventRequests: Request[] = [
  [{ experience: A, 'start[range]': '2030-01-01T00:00:00Z,2030-01-03T00:00:00Z' }, seller],
  [{ experience: B, 'start[range]': '2030-02-01T00:00:00Z,2030-02-03T00:00:00Z' }, seller],
  [{ 'start[gte]': '2030-01-01T00:00:00Z', limit: '50' }, 'all'],
  [{ 'start[gte]': '2031-01-01T00:00:00Z', limit: '10', skip: '10' }, 'all'],
];

type Source = (db: Kysely<DB>, search?: string) => ListSource<unknown>;
const sources: [string, ResourceSpec, Source, Request[]][] = [
  [
    'orders as JSON text',
    orderList,
    (db, search) => ordersRepository(db).jsonListSource(search),
    orderRequests,
  ],
  ['events', eventList, (db) => eventsRepository(db).listSource(), eventRequests],
];

describe.each(sources)('%s: compiled once per shape', (_name, spec, source, requests) => {
  it('sends what a fresh compilation sends, request after request', async () => {
    const cachedRecorder = createQueryRecorder();
    const firstSent: unknown[] = [];
    for (const round of [1, 2]) {
      for (const [i, [query, scope, search]] of requests.entries()) {
        const compiled = compile(spec, plan(parse(query), spec), scope);
        const fresh = createQueryRecorder();
        const [expected] = await fresh.record((db) => source(db, search).rows(compiled));
        const [sent] = await cachedRecorder.record((db) => source(db, search).rows(compiled));
        expect({ round, sql: sent!.sql, values: sent!.parameters }).toEqual({
          round,
          sql: expected!.sql,
          values: expected!.parameters,
        });
        // The second round is served from the cache: the first compilation's query, rebound.
        if (round === 1) firstSent[i] = sent!.query;
        else expect(sent!.query).toBe(firstSent[i]);
      }
    }
  });
});

describe('a page query: its limit written into the SQL, its offset bound when there is one', () => {
  const pageSql = async (query: Record<string, string>) => {
    const compiled = compile(orderList, plan(parse(query), orderList), seller);
    const [sent] = await createQueryRecorder().record((db) =>
      ordersRepository(db).jsonListSource().rows(compiled),
    );
    return { sql: sent!.sql, values: sent!.parameters };
  };

  it('writes the page size and its look-ahead row, and no offset on a first page', async () => {
    const { sql, values } = await pageSql({ seller: A, limit: '7' });
    // The page, its rows numbered, their views built for the page's 7 only (viewedPage),
    // each kept while the rows before it are under the page's byte budget.
    expect(sql).toMatch(/ limit 8\) as "p"\) as "o" offset 0\) as "v"\) as "p"$/);
    expect(sql).toMatch(/case when "o"\."page_row" < 8 then /);
    expect(sql).toMatch(/rows between unbounded preceding and 1 preceding\), 0\) < 1048576 then /);
    // The only OFFSET is the fence of the views' query (viewedPage), never the page's.
    expect(sql.match(/offset/g)).toEqual(['offset']);
    expect(sql).not.toMatch(/offset \$/);
    expect(values).toEqual([A]);
  });

  it('binds a skip as the offset', async () => {
    const { sql, values } = await pageSql({ seller: A, skip: '40' });
    expect(sql).toMatch(/ limit 21 offset \$2\) as "p"\) as "o" offset 0\) as "v"\) as "p"$/);
    expect(values).toEqual([A, 40]);
  });

  it('refuses a limit that is not a positive integer (the parser never makes one)', () => {
    const compiled = compile(orderList, plan(parse({ seller: A }), orderList), seller);
    const { db } = createQueryRecorder();
    for (const limit of [0, -1, 1.5, Number.NaN, Infinity])
      expect(() =>
        pageOf(db.selectFrom('orders as o').select('o.id'), { ...compiled, limit }),
      ).toThrow(/limit must be a positive integer/);
  });
});
