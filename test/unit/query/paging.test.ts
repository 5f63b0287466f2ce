import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderList } from '../../../src/modules/orders/orders.list.js';
import { linkAfter, linkTemplate, trimPage } from '../../../src/query/paging.js';
import { parse } from '../../../src/query/parse.js';
import { plan } from '../../../src/query/plan.js';

const LAST = 'cccccccccccccccccccccccc';
const planOf = (q: Record<string, string>) => plan(parse(q), orderList);
const nextLink = (
  path: string,
  query: Record<string, string>,
  queryPlan: ReturnType<typeof planOf>,
  lastId: string | undefined,
  hasMore: boolean,
) => linkAfter(linkTemplate(path, query, queryPlan), lastId, hasMore, queryPlan.limit);

describe('paging', () => {
  it('trims the look-ahead row', () => {
    const p = planOf({ limit: '2' });
    expect(trimPage(p, [1, 2, 3])).toEqual({ rows: [1, 2], hasMore: true });
    expect(trimPage(p, [1, 2])).toEqual({ rows: [1, 2], hasMore: false });
  });

  it('ends a page at the first row past its byte budget, and says more follow', () => {
    const p = planOf({ limit: '4' });
    const past = (n: number) => n < 0;
    expect(trimPage(p, [1, 2, -3, -4, -5], past)).toEqual({ rows: [1, 2], hasMore: true });
    // The first row is always the page's, whatever it weighs; the look-ahead row is not a cut.
    expect(trimPage(p, [-1, -2], past)).toEqual({ rows: [-1, -2], hasMore: false });
    expect(trimPage(p, [1, 2, 3, 4, -5], past)).toEqual({ rows: [1, 2, 3, 4], hasMore: true });
    expect(trimPage(p, [1, 2, 3], past)).toEqual({ rows: [1, 2, 3], hasMore: false });
  });

  it('links the page after a short one from where it ended: after its last id, or its rows', () => {
    const bySkip = { sort: 'amount', limit: '10', skip: '30' };
    expect(linkAfter(linkTemplate('/api/orders', bySkip, planOf(bySkip)), LAST, true, 3)).toBe(
      '/api/orders?sort=amount&limit=10&skip=33',
    );
    const byId = {};
    expect(linkAfter(linkTemplate('/api/orders', byId, planOf(byId)), LAST, true, 3)).toBe(
      `/api/orders?id[lt]=${LAST}&limit=20`,
    );
  });

  it('links the next page by keyset in the default order, dropping skip and apiKey', () => {
    const q = {
      'items.arrival[range]': '2019-11-08,2019-11-10',
      skip: '40',
      apiKey: 'secret',
      'id[lt]': 'f'.repeat(24),
    };
    expect(nextLink('/api/orders', q, planOf(q), LAST, true)).toBe(
      `/api/orders?items.arrival[range]=2019-11-08,2019-11-10&id[lt]=${LAST}&limit=20`,
    );
  });

  it('links the next page by skip in other orders', () => {
    const q = { sort: 'amount', limit: '10', skip: '30', customerName: 'A&B Tours' };
    expect(nextLink('/api/orders', q, planOf(q), LAST, true)).toBe(
      '/api/orders?sort=amount&customerName=A%26B%20Tours&limit=10&skip=40',
    );
  });

  it('advances offset as skip (an integration pages with limit/offset)', () => {
    const q = { sort: 'amount', limit: '10', offset: '30' };
    expect(nextLink('/api/orders', q, planOf(q), LAST, true)).toBe(
      '/api/orders?sort=amount&limit=10&skip=40',
    );
  });

  it('has no link without more rows', () => {
    expect(nextLink('/api/orders', {}, planOf({}), LAST, false)).toBeNull();
    expect(nextLink('/api/orders', {}, planOf({}), undefined, true)).toBeNull();
  });

  it('writes any name and value so that a reader gets them back, brackets and commas as they are', () => {
    const text = fc.string({ unit: 'binary', maxLength: 30 });
    fc.assert(
      fc.property(text, text, (key, value) => {
        fc.pre(!['limit', 'skip', 'offset', 'apiKey', 'id[lt]'].includes(key));
        const link = nextLink('/api/orders', { [key]: value }, planOf({}), LAST, true)!;
        const query = link.slice('/api/orders?'.length);
        expect(new URLSearchParams(query).get(key)).toBe(value);
        // Only the percent-encoded form of what is not unreserved, brackets or commas.
        expect(query).toMatch(/^[\w.!~*'()[\],%=&-]*$/);
      }),
      { numRuns: 2000 },
    );
    expect(nextLink('/api/orders', { 'start[range]': 'a b,c:d' }, planOf({}), LAST, true)).toBe(
      `/api/orders?start[range]=a%20b,c%3Ad&id[lt]=${LAST}&limit=20`,
    );
  });
});
