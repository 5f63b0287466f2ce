/**
 * Older versions' query rewrites across pages and on HEAD: before v2018-02-26 the `guides`
 * filter of an event list names user ids, and following `paging.next` (the client sends it
 * back on the same version) gives the next page of the same list, not a filter read twice.
 * HEAD requests are rewritten as their GET is: the same status and the same ETag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type Account, type TestApp } from '../helpers/app.js';
import { openShop, type Shop } from '../helpers/booking.js';
import { createEvent, delegate } from '../helpers/guides.js';

const OLD = { 'x-api-version': '2018-01-01' };

let t: TestApp;
let shop: Shop;
let guideUser: Account;
const guided: string[] = [];
const unguided: string[] = [];
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
  guideUser = await delegate(t.app, shop.seller, ['ROLE_GUIDE'], 'Pat Pager');
  for (const hour of ['08', '11', '14']) {
    const start = `2030-07-01T${hour}:00`;
    guided.push(
      (
        await createEvent(
          t.app,
          shop.seller,
          shop.experienceId,
          start,
          { guides: [guideUser.id] },
          OLD,
        )
      ).id,
    );
    unguided.push(
      (await createEvent(t.app, shop.seller, shop.experienceId, `2030-07-02T${hour}:00`)).id,
    );
  }
});
afterAll(async () => t.close());

const get = (url: string, method: 'GET' | 'HEAD' = 'GET') =>
  as(t.app, shop.seller, { method, url, headers: OLD });

/** Every event of the list, following `paging.next` on the same version. */
async function allPages(url: string): Promise<string[]> {
  const ids: string[] = [];
  let next: string | null = url;
  for (let page = 0; next && page < 10; page++) {
    const response = await get(next);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ data: { id: string }[]; paging: { next: string | null } }>();
    ids.push(...body.data.map((e) => e.id));
    next = body.paging.next;
  }
  return ids;
}

const sorted = (ids: string[]) => [...ids].sort();

describe('paging an event list filtered by guides before 2018-02-26', () => {
  const base = () => `/api/events?experience=${shop.experienceId}&limit=2`;

  it.each(['guides', 'guides[in]', 'guides[equals]'])(
    '%s=<user id>: page 2 has the rest of that user’s events',
    async (key) => {
      expect(sorted(await allPages(`${base()}&${key}=${guideUser.id}`))).toEqual(sorted(guided));
    },
  );

  it.each(['guides[nin]', 'guides[notEqual]'])(
    '%s=<user id>: no page has that user’s events',
    async (key) => {
      expect(sorted(await allPages(`${base()}&${key}=${guideUser.id}`))).toEqual(sorted(unguided));
    },
  );

  it('a user without a guide profile matches nothing on any page', async () => {
    expect(await allPages(`${base()}&guides=${'b'.repeat(24)}`)).toEqual([]);
  });
});

describe('HEAD on an older version', () => {
  it('rewrites the query as GET does: same status, same ETag', async () => {
    for (const url of [
      `/api/events?guides=${guideUser.id}`,
      '/api/orders?arrival=2019-11-08,2019-11-10',
    ]) {
      const got = await get(url);
      const head = await get(url, 'HEAD');
      expect(got.statusCode, got.body).toBe(200);
      expect(head.statusCode, url).toBe(200);
      expect(head.headers.etag).toBe(got.headers.etag);
    }
  });
});
