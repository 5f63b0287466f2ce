/**
 * Before v2018-02-26 an event's `guides` are user ids, in lists filters too: `guides=<user
 * id>` finds the events of the guide profiles linked to that user (it found none before
 * this rewrite). From 2018-02-26 on the filter takes guide ids, as the events show them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type Account, type TestApp } from '../helpers/app.js';
import { openShop, type Shop } from '../helpers/booking.js';
import { createEvent, delegate } from '../helpers/guides.js';

const OLD = { 'x-api-version': '2018-01-01' };

let t: TestApp;
let shop: Shop;
let guideUser: Account;
let guided: string;
let unguided: string;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
  guideUser = await delegate(t.app, shop.seller, ['ROLE_GUIDE'], 'Gina Guide');
  // An old client assigns the delegate by its user id (a guide profile is made for it).
  guided = (
    await createEvent(
      t.app,
      shop.seller,
      shop.experienceId,
      '2030-06-01T09:00',
      { guides: [guideUser.id] },
      OLD,
    )
  ).id;
  unguided = (await createEvent(t.app, shop.seller, shop.experienceId, '2030-06-01T14:00')).id;
});
afterAll(async () => t.close());

const ids = async (query: string, headers: Record<string, string> = OLD) =>
  (
    await as(t.app, shop.seller, {
      method: 'GET',
      url: `/api/events?experience=${shop.experienceId}&${query}`,
      headers,
    })
  )
    .json()
    .data.map((e: { id: string }) => e.id);

describe('the guides filter before 2018-02-26', () => {
  it('reads user ids: equals and in find the events, nin and notEqual leave them out', async () => {
    expect(await ids(`guides=${guideUser.id}`)).toEqual([guided]);
    expect(await ids(`guides[in]=${guideUser.id},${'a'.repeat(24)}`)).toEqual([guided]);
    expect(await ids(`guides[nin]=${guideUser.id}`)).toEqual([unguided]);
    expect(await ids(`guides[notEqual]=${guideUser.id}`)).toEqual([unguided]);
  });

  it('matches nothing for a user without a guide profile', async () => {
    expect(await ids(`guides=${'b'.repeat(24)}`)).toEqual([]);
  });

  it('takes guide ids from 2018-02-26 on (a user id then matches nothing)', async () => {
    const event = (
      await as(t.app, shop.seller, { method: 'GET', url: `/api/events/${guided}` })
    ).json();
    const guideId = (event.guides[0] as { guide: { id: string } }).guide.id;
    expect(guideId).not.toBe(guideUser.id);
    const latest = { 'x-api-version': '2026-11-25' };
    expect(await ids(`guides=${guideId}`, latest)).toEqual([guided]);
    expect(await ids(`guides=${guideUser.id}`, latest)).toEqual([]);
  });
});
