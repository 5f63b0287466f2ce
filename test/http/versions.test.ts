/**
 * The dated API versions over HTTP (DESIGN.md section 7), with the registered changes:
 *
 * - 2018-02-26 Guide Profiles: the same assignment scenario run as a caller before it
 *   (X-API-VERSION 2018-02-01: guides are delegates' user ids, a profile is created on
 *   demand, no schedule check) and on it (guide ids, schedules checked); an account pinned
 *   to an old version gets the old shapes without the header.
 * - 2018-02-15 Query Operators: older callers' order filters are rewritten (comma lists
 *   mean range or in; arrival, event, status, experience mean the item fields).
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createTestApp,
  expectProblem,
  signUp,
  type Account,
  type TestApp,
  pinApiVersion,
} from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { pastStamps } from '../helpers/horizon.js';
import {
  DAYTIME,
  assign,
  createEvent,
  createGuide,
  delegate,
  idsOf,
  readEvent,
  unassign,
  type EventView,
  type Guide,
} from '../helpers/guides.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const OLD = '2018-02-01';
const NEW = '2018-02-26';
/** What the server echoes: the newest version on or before the date asked for. */
const RESOLVED: Record<string, string> = { [OLD]: '2017-09-28', [NEW]: '2018-02-26' };
const UNKNOWN = '0123456789abcdef01234567';

const headerOf = (version: string) => ({ 'x-api-version': version });
const profilesOf = async (sellerId: string, userId: string) =>
  t.database.db
    .selectFrom('guides')
    .selectAll()
    .where('seller_id', '=', sellerId)
    .where('user_id', '=', userId)
    .execute();
const guideCount = async () =>
  Number(
    (
      await t.database.db
        .selectFrom('guides')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

function expectVersion(response: LightMyRequestResponse, version: string): void {
  expect(response.headers['x-api-version'], response.body).toBe(RESOLVED[version]);
}

describe.each([OLD, NEW])('the assignment scenario under X-API-VERSION %s', (version) => {
  const old = version === OLD;
  const h = headerOf(version);
  let shop: Shop;
  let seller: Account;
  let gusUser: Account;
  /** Gus's guide profile, as the current API shows it. */
  let gus: Guide;
  /** How this version names Gus in guide lists and assignments. */
  let ref: string;
  let e1: EventView;
  let e2: EventView;
  let e3: EventView;

  beforeAll(async () => {
    shop = await openShop(t.app);
    seller = shop.seller;
    gusUser = await delegate(t.app, seller, ['ROLE_GUIDE'], 'Gus Guide');
    // 2030-07-01 is a Monday: e1 09:00-10:30, e2 09:30-11:00 (overlaps e1), e3 next day.
    e1 = await createEvent(t.app, seller, shop.experienceId, '2030-07-01T09:00');
    e2 = await createEvent(t.app, seller, shop.experienceId, '2030-07-01T09:30');
    e3 = await createEvent(t.app, seller, shop.experienceId, '2030-07-02T09:00');
  });

  it('assigns with each body shape, idempotently, and shows the version’s ids', async () => {
    if (old) {
      // Before 2018-02-26 the delegate's user id is the guide: no profile exists yet, one is
      // made on the first assignment, without any schedule, and no schedule check applies.
      expect(await profilesOf(seller.id, gusUser.id)).toEqual([]);
      ref = gusUser.id;
    } else {
      // On 2018-02-26 a user id is no guide id, and a profile's schedules must allow it.
      expectProblem(
        await assign(t.app, seller, e1.id, { guide: { id: gusUser.id } }, h),
        404,
        'not_found',
      );
      expect(await profilesOf(seller.id, gusUser.id)).toEqual([]);
      const profile = await createGuide(t.app, seller, seller.id, {
        name: 'Gus Guide',
        user: { id: gusUser.id },
        schedules: [],
      });
      const refused = await assign(t.app, seller, e1.id, { guide: { id: profile.id } }, h);
      expectProblem(refused, 409, 'guide_unavailable');
      expectVersion(refused, version);
      await as(t.app, seller, {
        method: 'POST',
        url: `/api/sellers/${seller.id}/guides/${profile.id}/schedules`,
        payload: DAYTIME,
      });
      ref = profile.id;
    }

    const first = await assign(t.app, seller, e1.id, { guide: { id: ref } }, h);
    expect(first.statusCode, first.body).toBe(201);
    expectVersion(first, version);
    expect(first.json()).toMatchObject({ object: 'event', id: e1.id, guides: [ref] });

    const profiles = await profilesOf(seller.id, gusUser.id);
    expect(profiles).toHaveLength(1);
    const profile = await as(t.app, seller, {
      method: 'GET',
      url: `/api/sellers/${seller.id}/guides/${profiles[0]!.id}`,
    });
    gus = profile.json();
    expect(gus.id).not.toBe(gusUser.id);
    expect(gus).toMatchObject({ name: 'Gus Guide', user: { id: gusUser.id } });
    if (old) {
      expect(gus.schedules).toEqual([]);
      expect(gus.email).toBe(gusUser.email);
    } else {
      expect(gus.id).toBe(ref);
    }

    // The other two body shapes, and assigning twice.
    const second = await assign(t.app, seller, e3.id, { id: ref }, h);
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().guides).toEqual([ref]);
    const again = await assign(t.app, seller, e1.id, { id: { id: ref } }, h);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await profilesOf(seller.id, gusUser.id)).toHaveLength(1);
  });

  it('refuses an overlapping event unless forceConfirm, in either version', async () => {
    const conflict = await assign(t.app, seller, e2.id, { guide: { id: ref } }, h);
    const problem = expectProblem(conflict, 409, 'guide_conflict');
    expectVersion(conflict, version);
    expect((problem.event as EventView).id).toBe(e1.id);
    // The error names the guide, and carries the conflicting event, in the version's ids:
    // a client before 2018-02-26 never sees a guide-profile id.
    expect((problem.event as EventView).guides).toEqual([ref]);
    expect((problem.guide as { id: string }).id).toBe(ref);
    if (old) expect(conflict.body).not.toContain(gus.id);
    const forced = await assign(
      t.app,
      seller,
      e2.id,
      { guide: { id: ref, forceConfirm: true } },
      h,
    );
    expect(forced.statusCode, forced.body).toBe(201);
    expect(forced.json().guides).toEqual([ref]);
  });

  it('shows guides in the version’s ids on GET /api/events and GET /api/events/{id}', async () => {
    const plain = await createGuide(t.app, seller, seller.id, { name: 'No User' });
    await assign(t.app, seller, e3.id, { guide: { id: plain.id } });
    // Older callers see user ids: a guide without a linked user has none to show.
    const e3Guides = old ? [gusUser.id] : [gus.id, plain.id];

    const one = await readEvent(t.app, seller, e3.id, h);
    expect(one.statusCode).toBe(200);
    expectVersion(one, version);
    expect(one.json()).toMatchObject({ id: e3.id, guides: e3Guides });

    const list = await as(t.app, seller, {
      method: 'GET',
      // Latest start first: these events were made in one second, where ids have no order.
      url: `/api/events?experience=${shop.experienceId}&sort=-start`,
      headers: h,
    });
    expectVersion(list, version);
    expect(list.json().data.map((e: EventView) => [e.id, e.guides])).toEqual([
      [e3.id, e3Guides],
      [e2.id, [ref]],
      [e1.id, [ref]],
    ]);
    if (!old) {
      expect(
        idsOf(
          await as(t.app, seller, {
            method: 'GET',
            url: `/api/events?guides=${gus.id}&sort=-start`,
            headers: h,
          }),
        ),
      ).toEqual([e3.id, e2.id, e1.id]);
    }
    // The current API, whatever the caller's version, holds guide ids.
    expect((await readEvent(t.app, seller, e3.id, headerOf(NEW))).json().guides).toEqual([
      gus.id,
      plain.id,
    ]);
    await unassign(t.app, seller, e3.id, plain.id);
  });

  it('takes guides in the version’s ids on POST /api/events', async () => {
    const created = await as(t.app, seller, {
      method: 'POST',
      url: '/api/events',
      payload: { experience: { id: shop.experienceId }, start: '2030-07-03T14:00', guides: [ref] },
      headers: h,
    });
    expect(created.statusCode, created.body).toBe(201);
    expectVersion(created, version);
    expect(created.json().guides).toEqual([ref]);
    expect(
      (await readEvent(t.app, seller, created.json().id, headerOf(NEW))).json().guides,
    ).toEqual([gus.id]);
    // An overlapping event refuses it here too (no forceConfirm on POST /api/events).
    expectProblem(
      await as(t.app, seller, {
        method: 'POST',
        url: '/api/events',
        payload: {
          experience: { id: shop.experienceId },
          start: '2030-07-03T14:30',
          guides: [ref],
        },
        headers: h,
      }),
      409,
      'guide_conflict',
    );
  });

  it('unassigns by the version’s id', async () => {
    const removed = await unassign(t.app, seller, e2.id, ref, h);
    expect(removed.statusCode, removed.body).toBe(200);
    expectVersion(removed, version);
    expect(removed.json()).toMatchObject({ id: e2.id, guides: [] });
    expectProblem(await unassign(t.app, seller, e2.id, ref, h), 404, 'not_found');
    if (!old) {
      // On 2018-02-26 a user id does not name the guide. (Older callers' DELETE also takes
      // a guide id: ids never collide, so the rewrite passes one it cannot translate on.)
      expectProblem(await unassign(t.app, seller, e1.id, gusUser.id, h), 404, 'not_found');
    }
    expect((await readEvent(t.app, seller, e1.id, headerOf(NEW))).json().guides).toEqual([gus.id]);
  });
});

describe('guides before 2018-02-26', () => {
  const h = headerOf(OLD);
  let shop: Shop;
  beforeAll(async () => {
    shop = await openShop(t.app);
  });

  it('creates profiles only for delegates of the event’s seller, and only for guide managers', async () => {
    const s = shop.seller;
    const target = await createEvent(t.app, s, shop.experienceId, '2030-08-05T09:00');
    const before = await guideCount();
    const stranger = await signUp(t.app);
    const other = await openShop(t.app);
    const theirs = await delegate(t.app, other.seller, ['ROLE_GUIDE']);
    for (const userId of [stranger.id, theirs.id, UNKNOWN]) {
      for (const body of [{ guide: { id: userId } }, { id: userId }, { id: { id: userId } }]) {
        expectProblem(await assign(t.app, s, target.id, body, h), 404, 'not_found');
      }
    }
    // A delegate without guide rights cannot assign, and its attempt creates nothing.
    const clerk = await delegate(t.app, s, ['ROLE_RESERVATION']);
    const curatorUser = await delegate(t.app, s, ['ROLE_CURATOR'], 'Cleo Curator');
    expectProblem(
      await assign(t.app, clerk, target.id, { id: curatorUser.id }, h),
      403,
      'forbidden',
    );
    expectProblem(
      await assign(t.app, stranger, target.id, { id: curatorUser.id }, h),
      404,
      'not_found',
    );
    expect(await guideCount()).toBe(before);
    // Any delegate of the seller may be a guide; a guide manager may assign it.
    const manager = await delegate(t.app, s, ['ROLE_GUIDE_MANAGER']);
    const assigned = await assign(t.app, manager, target.id, { id: curatorUser.id }, h);
    expect(assigned.statusCode, assigned.body).toBe(201);
    expect(assigned.json().guides).toEqual([curatorUser.id]);
    const [profile] = await profilesOf(s.id, curatorUser.id);
    expect(profile).toMatchObject({ name: 'Cleo Curator', seller_id: s.id, schedules: [] });
    expect(await guideCount()).toBe(before + 1);
    // A user id with no profile at the seller names no guide of the event.
    expectProblem(await unassign(t.app, s, target.id, stranger.id, h), 404, 'not_found');
  });

  it('reuses an existing profile of the delegate, schedules and all, without checking them', async () => {
    const s = shop.seller;
    const user = await delegate(t.app, s, ['ROLE_GUIDE']);
    const mondays = { type: 'available', repeat: 'weekly', days: [1] };
    const profile = await createGuide(t.app, s, s.id, {
      name: 'Monday Only',
      user: { id: user.id },
      schedules: [mondays],
    });
    // 2030-08-06 is a Tuesday: the new API refuses, the old one assigns.
    const tuesday = await createEvent(t.app, s, shop.experienceId, '2030-08-06T09:00');
    expectProblem(
      await assign(t.app, s, tuesday.id, { guide: { id: profile.id } }, headerOf(NEW)),
      409,
      'guide_unavailable',
    );
    const response = await assign(t.app, s, tuesday.id, { guide: { id: user.id } }, h);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().guides).toEqual([user.id]);
    expect((await readEvent(t.app, s, tuesday.id, headerOf(NEW))).json().guides).toEqual([
      profile.id,
    ]);
    expect(await profilesOf(s.id, user.id)).toHaveLength(1);
  });

  it('replays POST /api/events under an Idempotency-Key in the caller’s shape', async () => {
    const s = shop.seller;
    const user = await delegate(t.app, s, ['ROLE_GUIDE']);
    const post = (version: string) =>
      as(t.app, s, {
        method: 'POST',
        url: '/api/events',
        payload: {
          experience: { id: shop.experienceId },
          start: '2030-08-08T14:00',
          guides: [user.id],
        },
        headers: { ...headerOf(version), 'idempotency-key': `old-guides-${user.id}` },
      });
    const first = await post(OLD);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().guides).toEqual([user.id]);
    const again = await post(OLD);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await profilesOf(s.id, user.id)).toHaveLength(1);
  });

  it('follows the account’s pinned version when the header is absent', async () => {
    const pinned = await openShop(t.app);
    const s = pinned.seller;
    await pinApiVersion(t, s, OLD);
    const user = await delegate(t.app, s, ['ROLE_GUIDE']);
    const target = await createEvent(t.app, s, pinned.experienceId, '2030-08-07T09:00');
    const assigned = await assign(t.app, s, target.id, { id: user.id });
    expect(assigned.statusCode, assigned.body).toBe(201);
    expect(assigned.headers['x-api-version']).toBe('2017-09-28');
    expect(assigned.json().guides).toEqual([user.id]);
    const read = await readEvent(t.app, s, target.id);
    expect(read.headers['x-api-version']).toBe('2017-09-28');
    expect(read.json().guides).toEqual([user.id]);
    const listed = await as(t.app, s, { method: 'GET', url: '/api/events' });
    expect(listed.json().data.map((e: EventView) => e.guides)).toEqual([[user.id]]);
    // The header overrides the pin.
    const [profile] = await profilesOf(s.id, user.id);
    const current = await readEvent(t.app, s, target.id, headerOf(NEW));
    expect(current.headers['x-api-version']).toBe(NEW);
    expect(current.json().guides).toEqual([profile!.id]);
    const removed = await unassign(t.app, s, target.id, user.id);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().guides).toEqual([]);
  });
});

describe('order filters before 2018-02-15 (Query Operators)', () => {
  let shop: Shop;
  let otherExperience: string;
  let a: { id: string; createdAt: string; updatedAt: string; items: { event: { id: string } }[] };
  let b: typeof a;
  let c: typeof a;

  beforeAll(async () => {
    shop = await openShop(t.app);
    const second = await as(t.app, shop.seller, {
      method: 'POST',
      url: '/api/experiences',
      payload: {
        name: 'Second',
        price: 10,
        priceType: 'person',
        currency: 'EUR',
        duration: 60,
        timezone: 'Europe/Paris',
        schedules: [
          { type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: [900] },
        ],
      },
    });
    otherExperience = second.json().id;
    const customer = await signUp(t.app);
    const order = async (items: ReturnType<typeof item>[]) => {
      const response = await book(t.app, customer, { items });
      if (response.statusCode !== 201) throw new Error(response.body);
      return response.json();
    };
    // a: one item on 06-02; b: items on 06-01 and 06-05 (its arrival is 06-01);
    // c: one item on 06-10 of the other experience, canceled.
    a = await order([item(shop.experienceId, '2030-06-02')]);
    b = await order([item(shop.experienceId, '2030-06-01'), item(otherExperience, '2030-06-05')]);
    c = await order([item(otherExperience, '2030-06-10')]);
    const canceled = await as(t.app, customer, {
      method: 'POST',
      url: `/api/orders/${c.id}/cancel`,
    });
    expect(canceled.statusCode, canceled.body).toBe(200);
    // `updatedAt=` below is read past a stamp: the pollers' horizon applies.
    await pastStamps(a.updatedAt, b.updatedAt, canceled.json<{ updatedAt: string }>().updatedAt);
  });

  // Newest first by creation time: these orders were made in one second, where ids (the
  // default order) have no order among themselves.
  const orders = (query: string, version?: string) =>
    as(t.app, shop.seller, {
      method: 'GET',
      url: `/api/orders?${query}&sort=-createdAt`,
      headers: version ? headerOf(version) : {},
    });

  it('reads comma lists as range or in, and plain fields as item fields', async () => {
    const inRange = [c, b, a].filter(
      (o) => o.createdAt >= a.createdAt && o.createdAt <= b.createdAt,
    );
    const cases: [string, string[]][] = [
      ['arrival=2030-06-02,2030-06-05', [b.id, a.id]],
      ['arrival=2030-06-01', [b.id]],
      ['arrival=2030-06-05', [b.id]],
      ['arrival[gte]=2030-06-05', [c.id, b.id]],
      ['items.arrival[range]=2030-06-02,2030-06-05', [b.id, a.id]],
      ['status=200,700', [c.id, b.id, a.id]],
      ['status=700', [c.id]],
      ['status=200', [b.id, a.id]],
      [`experience=${otherExperience}`, [c.id, b.id]],
      [`experience=${shop.experienceId}`, [b.id, a.id]],
      [`event=${a.items[0]!.event.id}`, [a.id]],
      [`createdAt=2000-01-01T00:00:00Z,2099-01-01T00:00:00Z`, [c.id, b.id, a.id]],
      [`createdAt=2000-01-01T00:00:00Z,2001-01-01T00:00:00Z`, []],
      [`createdAt=${a.createdAt},${b.createdAt}`, inRange.map((o) => o.id)],
      [`updatedAt=2000-01-01T00:00:00Z,2099-01-01T00:00:00Z`, [c.id, b.id, a.id]],
      // Fields that were never renamed keep their meaning beside the rewritten ones.
      ['customerName=Test User&status=700', [c.id]],
    ];
    for (const [query, expected] of cases) {
      for (const version of [OLD, '2018-02-14']) {
        const response = await orders(encodeURI(query), version);
        expect(response.statusCode, `${version} ${query}: ${response.body}`).toBe(200);
        expect(response.headers['x-api-version']).toBe('2017-09-28');
        expect(idsOf(response), `${version} ${query}`).toEqual(expected);
      }
    }
  });

  it('keeps today’s meaning from 2018-02-15 on: the same queries are 400s or order fields', async () => {
    const refused: [string, string, string][] = [
      ['arrival=2030-06-02,2030-06-05', 'invalid_value', 'arrival'],
      ['status=200,700', 'invalid_value', 'status'],
      ['status=700', 'invalid_value', 'status'],
      [`experience=${otherExperience}`, 'unknown_field', 'experience'],
      [`event=${a.items[0]!.event.id}`, 'unknown_field', 'event'],
      ['createdAt=2000-01-01T00:00:00Z,2099-01-01T00:00:00Z', 'invalid_value', 'createdAt'],
    ];
    for (const version of ['2018-02-15', NEW]) {
      for (const [query, code, parameter] of refused) {
        const response = await orders(encodeURI(query), version);
        const body = expectProblem(response, 400, code);
        expect(body.errors?.[0], `${version} ${query}`).toMatchObject({
          in: 'query',
          name: parameter,
        });
        expect(response.headers['x-api-version']).toBe(version);
      }
      const accepted: [string, string[]][] = [
        ['arrival[range]=2030-06-02,2030-06-05', [a.id]],
        ['arrival=2030-06-01', [b.id]],
        ['arrival[gte]=2030-06-05', [c.id]],
        ['items.arrival[range]=2030-06-02,2030-06-05', [b.id, a.id]],
        ['status=canceled', [c.id]],
        ['items.status[in]=200,700', [c.id, b.id, a.id]],
        [`items.experience=${otherExperience}`, [c.id, b.id]],
        ['createdAt[range]=2000-01-01T00:00:00Z,2099-01-01T00:00:00Z', [c.id, b.id, a.id]],
      ];
      for (const [query, expected] of accepted) {
        const response = await orders(encodeURI(query), version);
        expect(response.statusCode, `${version} ${query}: ${response.body}`).toBe(200);
        expect(idsOf(response), `${version} ${query}`).toEqual(expected);
      }
    }
    // Without a header, a new account is on the latest version.
    expectProblem(await orders('arrival=2030-06-02,2030-06-05'), 400, 'invalid_value');
  });

  it('follows an account pinned before 2018-02-15 without the header', async () => {
    await pinApiVersion(t, shop.seller, '2018-01-15');
    try {
      const response = await orders('arrival=2030-06-02,2030-06-05');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['x-api-version']).toBe('2017-09-28');
      expect(idsOf(response)).toEqual([b.id, a.id]);
      // The header still wins over the pin.
      expectProblem(await orders('arrival=2030-06-02,2030-06-05', NEW), 400, 'invalid_value');
    } finally {
      await pinApiVersion(t, shop.seller, NEW);
    }
  });
});

describe('X-API-VERSION on these routes', () => {
  it('echoes the resolved version, and refuses a malformed one with 400', async () => {
    const shop = await openShop(t.app);
    const target = await createEvent(t.app, shop.seller, shop.experienceId, '2030-09-02T09:00');
    for (const [sent, echoed] of [
      ['2017-09-27', '2017-01-01'],
      ['2018-02-01', '2017-09-28'],
      ['2018-02-15', '2018-02-15'],
      ['2018-02-25', '2018-02-15'],
      ['2018-02-26', '2018-02-26'],
      ['2018-06-25', '2018-02-26'],
      ['2018-06-26', '2018-06-26'],
      ['2026-11-24', '2018-06-26'],
      ['2031-01-01', '2026-11-25'],
    ]) {
      const response = await readEvent(t.app, shop.seller, target.id, headerOf(sent!));
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-api-version'], sent).toBe(echoed);
    }
    // 2018-02-15 is after Query Operators but before Guide Profiles: guides are user ids.
    const user = await delegate(t.app, shop.seller, ['ROLE_GUIDE']);
    const assigned = await assign(
      t.app,
      shop.seller,
      target.id,
      { id: user.id },
      headerOf('2018-02-15'),
    );
    expect(assigned.statusCode, assigned.body).toBe(201);
    expect(assigned.json().guides).toEqual([user.id]);
    expectProblem(
      await assign(t.app, shop.seller, target.id, { id: user.id }, headerOf('last tuesday')),
      400,
      'invalid_api_version',
    );
  });
});
