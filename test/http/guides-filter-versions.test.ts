/**
 * Before v2018-02-26 an event's `guides` are user ids, in lists filters too: `guides=<user
 * id>` finds the events of the guide profiles linked to that user (it found none before
 * this rewrite). From 2018-02-26 on the filter takes guide ids, as the events show them.
 * The rewrite translates only guides of the sellers whose events the caller sees (and its
 * own profiles): the ids it writes come back in `paging.next`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type Account, type TestApp } from '../helpers/app.js';
import { openShop, type Shop } from '../helpers/booking.js';
import { createEvent, createGuide, delegate, makeDelegate } from '../helpers/guides.js';

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

describe('what the rewrite may translate', () => {
  /** `paging.next` of a one-event page of the caller's events filtered by `query`. */
  const nextOf = async (caller: Account, query: string) => {
    const response = await as(t.app, caller, {
      method: 'GET',
      url: `/api/events?${query}&limit=1`,
      headers: OLD,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().paging.next as string;
  };

  it('never shows or tells another seller’s guide ids, either way', async () => {
    // The guide user's profile at shop (guided) is the victim; another seller asks about it.
    const victimGuide = (
      await as(t.app, shop.seller, { method: 'GET', url: `/api/events/${guided}` })
    ).json().guides[0].guide.id as string;
    const other = await openShop(t.app);
    await createEvent(t.app, other.seller, other.experienceId, '2030-07-01T09:00');
    await createEvent(t.app, other.seller, other.experienceId, '2030-07-02T09:00');

    const unknown = 'c'.repeat(24);
    const byUser = await nextOf(other.seller, `guides[nin]=${guideUser.id}`);
    const byNobody = await nextOf(other.seller, `guides[nin]=${unknown}`);
    expect(byUser).not.toContain(victimGuide);
    expect(byUser).toBe(byNobody);
    const byGuide = await nextOf(other.seller, `guides[nin]=${victimGuide}`);
    expect(byGuide).not.toContain(victimGuide);
    expect(byGuide).toBe(byNobody);
  });

  it('translates a guide’s own user id for it, and nothing of another guide’s', async () => {
    expect(
      (
        await as(t.app, guideUser, {
          method: 'GET',
          url: `/api/events?guides=${guideUser.id}`,
          headers: OLD,
        })
      )
        .json()
        .data.map((e: { id: string }) => e.id),
    ).toEqual([guided]);
    // At a second seller it guides for, a colleague's profile: the guide may not learn its id.
    const second = await openShop(t.app);
    await makeDelegate(t.app, second.seller, guideUser, ['ROLE_GUIDE']);
    const own = await createGuide(t.app, second.seller, second.seller.id, {
      name: 'Gina there',
      user: { id: guideUser.id },
    });
    for (const start of ['2030-08-01T09:00', '2030-08-02T09:00'])
      await createEvent(t.app, second.seller, second.experienceId, start, { guides: [own.id] });
    const colleague = await delegate(t.app, second.seller, ['ROLE_GUIDE'], 'Colleague');
    const profile = await createGuide(t.app, second.seller, second.seller.id, {
      name: 'Colleague',
      user: { id: colleague.id },
    });
    const other = await as(t.app, guideUser, {
      method: 'GET',
      url: `/api/events?guides[nin]=${colleague.id}&limit=1`,
      headers: OLD,
    });
    expect(other.statusCode).toBe(200);
    expect(other.json().paging.next).toContain('guides');
    expect(JSON.stringify(other.json().paging)).not.toContain(profile.id);
  });
});
