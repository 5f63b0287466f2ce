/**
 * Page queries compiled once per shape (db/list-source.ts): through one handle, every
 * request sends exactly the SQL and values a fresh compilation sends, whether its shape was
 * cached (the second of a shape) or not (searches, scopes, keyset pages, `in` lists).
 */
import { describe, expect, it } from 'vitest';
import { createQueryRecorder } from '../../src/db/query-recorder.js';
import { ordersRepository } from '../../src/modules/orders/orders.repository.js';
import { orderList } from '../../src/modules/orders/orders.list.js';
import { compile } from '../../src/query/compile.js';
import { parse } from '../../src/query/parse.js';
import { plan } from '../../src/query/plan.js';
import type { Scope } from '../../src/query/types.js';

const A = 'a'.repeat(24);
const B = 'b'.repeat(24);
const seller: Scope = { anyOf: [{ field: 'seller', in: [A] }] };

const requests: [Record<string, string>, Scope, string?][] = [
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
  [{ sort: '-createdAt', skip: '20' }, seller, 'Zoë'],
  [{ sort: '-createdAt', skip: '40' }, seller, 'KX7Q'],
  [{ 'customerEmail[exists]': 'true' }, 'all'],
  [{ 'customerEmail[exists]': 'false' }, 'all'],
];

describe('listSource compiled once per shape', () => {
  it('sends what a fresh compilation sends, request after request', async () => {
    const cachedRecorder = createQueryRecorder();
    const firstSent: unknown[] = [];
    for (const round of [1, 2]) {
      for (const [i, [query, scope, search]] of requests.entries()) {
        const compiled = compile(orderList, plan(parse(query), orderList), scope);
        const fresh = createQueryRecorder();
        const [expected] = await fresh.record((db) =>
          ordersRepository(db).listSource(search).rows(compiled),
        );
        const [sent] = await cachedRecorder.record((db) =>
          ordersRepository(db).listSource(search).rows(compiled),
        );
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
