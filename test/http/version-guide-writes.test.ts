/**
 * Older clients writing an event's guides:
 * - `POST /api/events` sets the guides the caller's version shows, and keeps the ones that
 *   version cannot show (declined guides before 2018-06-26; also guides without a linked
 *   user before 2018-02-26): a client sending back what it read removes none of them.
 * - Before 2018-02-26 a guide is named by its delegate's user id, and a delegate without a
 *   profile gets one in the request's transaction, announced as `guide.create`: a request
 *   that fails leaves no profile behind.
 * - Before 2018-02-26 no schedule rule applies to a delegate named by its user id (what that
 *   version assigned); a guide id named there is a profile, checked as on every version.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createTestApp,
  expectProblem,
  signUp,
  type Account,
  type TestApp,
} from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import {
  assign,
  createEvent,
  createGuide,
  delegate,
  guideRequest,
  readEvent,
  type EventGuide,
  type Guide,
} from '../helpers/guides.js';

const V2018_01 = { 'x-api-version': '2018-01-01' };
const V2018_03 = { 'x-api-version': '2018-03-01' };

let t: TestApp;
let shop: Shop;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
});
afterAll(async () => t.close());

/** The event's guides in the latest shape. */
const guidesOn = async (eventId: string): Promise<EventGuide[]> =>
  (await readEvent(t.app, shop.seller, eventId)).json<{ guides: EventGuide[] }>().guides;

const decline = async (eventId: string, guideId: string) => {
  const response = await as(t.app, shop.seller, {
    method: 'PUT',
    url: `/api/events/${eventId}/guides/${guideId}`,
    payload: { status: 'declined' },
  });
  expect(response.statusCode, response.body).toBe(200);
};

const upsert = (start: string, fields: Record<string, unknown>, headers: Record<string, string>) =>
  as(t.app, shop.seller, {
    method: 'POST',
    url: '/api/events',
    payload: { experience: { id: shop.experienceId }, start, ...fields },
    headers,
  });

describe('POST /api/events keeps the guides the caller’s version cannot show', () => {
  let ann: Guide;
  let bob: Guide;
  let linkedUser: Account;
  let linked: Guide;
  beforeAll(async () => {
    ann = await createGuide(t.app, shop.seller, shop.seller.id, { name: 'Ann' });
    bob = await createGuide(t.app, shop.seller, shop.seller.id, { name: 'Bob' });
    linkedUser = await delegate(t.app, shop.seller, ['ROLE_GUIDE'], 'Lin');
    linked = await createGuide(t.app, shop.seller, shop.seller.id, {
      name: 'Lin',
      user: { id: linkedUser.id },
    });
  });

  it('before 2018-06-26: a declined guide stays when the client sends back what it read', async () => {
    const start = '2030-09-01T09:00';
    const event = await createEvent(t.app, shop.seller, shop.experienceId, start, {
      guides: [ann.id, bob.id],
    });
    await decline(event.id, bob.id);
    const read = await readEvent(t.app, shop.seller, event.id, V2018_03);
    expect(read.json().guides).toEqual([ann.id]);

    const sent = await upsert(start, { max: 12, guides: read.json().guides }, V2018_03);
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ max: 12, guides: [ann.id] });
    expect(await guidesOn(event.id)).toEqual([
      { status: 'pending', guide: { id: ann.id } },
      { status: 'declined', guide: { id: bob.id } },
    ]);

    // What the client sees it may still remove.
    const emptied = await upsert(start, { guides: [] }, V2018_03);
    expect(emptied.statusCode, emptied.body).toBe(201);
    expect(await guidesOn(event.id)).toEqual([{ status: 'declined', guide: { id: bob.id } }]);
  });

  it('before 2018-02-26: a guide without a user, and a declined one, stay too', async () => {
    const start = '2030-09-02T09:00';
    const event = await createEvent(t.app, shop.seller, shop.experienceId, start, {
      guides: [ann.id, linked.id, bob.id],
    });
    await decline(event.id, bob.id);
    const read = await readEvent(t.app, shop.seller, event.id, V2018_01);
    expect(read.json().guides).toEqual([linkedUser.id]);

    const sent = await upsert(start, { max: 12, guides: read.json().guides }, V2018_01);
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().guides).toEqual([linkedUser.id]);
    expect((await guidesOn(event.id)).map((g) => g.guide.id).sort()).toEqual(
      [ann.id, bob.id, linked.id].sort(),
    );

    const emptied = await upsert(start, { guides: [] }, V2018_01);
    expect(emptied.statusCode, emptied.body).toBe(201);
    expect((await guidesOn(event.id)).map((g) => g.guide.id).sort()).toEqual(
      [ann.id, bob.id].sort(),
    );
  });

  it('from 2018-06-26 on, `guides` is the whole set, declined guides included', async () => {
    const start = '2030-09-03T09:00';
    const event = await createEvent(t.app, shop.seller, shop.experienceId, start, {
      guides: [ann.id, bob.id],
    });
    await decline(event.id, bob.id);
    const sent = await upsert(start, { guides: [ann.id] }, { 'x-api-version': '2018-06-26' });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(await guidesOn(event.id)).toEqual([{ status: 'pending', guide: { id: ann.id } }]);
  });
});

describe('before 2018-02-26, a profile made for a delegate', () => {
  const profileOf = async (user: Account): Promise<Guide | undefined> => {
    const list = await guideRequest(
      t.app,
      shop.seller,
      'GET',
      `/${shop.seller.id}/guides?limit=100`,
    );
    return list.json<{ data: Guide[] }>().data.find((g) => g.user?.id === user.id);
  };
  const guideCreates = async (guideId: string) =>
    t.database.db
      .selectFrom('domain_events')
      .select('name')
      .where('name', '=', 'guide.create')
      .where(sql<string>`object ->> 'id'`, '=', guideId)
      .execute();

  it('is not left behind by an assignment that fails validation', async () => {
    const user = await delegate(t.app, shop.seller, ['ROLE_GUIDE'], 'Val');
    const event = await createEvent(t.app, shop.seller, shop.experienceId, '2030-10-01T09:00');
    expectProblem(
      await assign(
        t.app,
        shop.seller,
        event.id,
        { guide: { id: user.id, forceConfirm: 'yes' } },
        V2018_01,
      ),
      400,
      'validation_failed',
    );
    expect(await profileOf(user)).toBeUndefined();
  });

  it('is not left behind by an upsert that fails (bad start, capacity below reserved)', async () => {
    const user = await delegate(t.app, shop.seller, ['ROLE_GUIDE'], 'Wes');
    expectProblem(
      await upsert('2030-13-45T09:00', { guides: [user.id] }, V2018_01),
      400,
      'validation_failed',
    );
    const customer = await signUp(t.app);
    const booked = await book(t.app, customer, {
      items: [item(shop.experienceId, '2030-10-02', 900, 2)],
    });
    expect(booked.statusCode, booked.body).toBe(201);
    expectProblem(
      await upsert('2030-10-02T09:00', { max: 1, guides: [user.id] }, V2018_01),
      409,
      'capacity_below_reserved',
    );
    expect(await profileOf(user)).toBeUndefined();
  });

  it('is made with the assignment and announced as guide.create', async () => {
    const user = await delegate(t.app, shop.seller, ['ROLE_GUIDE'], 'Xia');
    const event = await createEvent(t.app, shop.seller, shop.experienceId, '2030-10-03T09:00');
    const assigned = await assign(
      t.app,
      shop.seller,
      event.id,
      { guide: { id: user.id } },
      V2018_01,
    );
    expect(assigned.statusCode, assigned.body).toBe(201);
    expect(assigned.json().guides).toEqual([user.id]);
    const profile = await profileOf(user);
    expect(profile).toMatchObject({ name: 'Xia', user: { id: user.id } });
    expect(await guideCreates(profile!.id)).toHaveLength(1);

    const other = await delegate(t.app, shop.seller, ['ROLE_GUIDE'], 'Yan');
    const upserted = await upsert('2030-10-04T09:00', { guides: [user.id, other.id] }, V2018_01);
    expect(upserted.statusCode, upserted.body).toBe(201);
    expect(upserted.json().guides).toEqual([user.id, other.id]);
    const made = await profileOf(other);
    expect(await guideCreates(made!.id)).toHaveLength(1);
    // Its first profile is the one used again: no second one, no second guide.create.
    expect(await guideCreates(profile!.id)).toHaveLength(1);
  });

  it('is not made for a user who is not a delegate of the seller (404)', async () => {
    const stranger = await signUp(t.app);
    const event = await createEvent(t.app, shop.seller, shop.experienceId, '2030-10-05T09:00');
    expectProblem(
      await assign(t.app, shop.seller, event.id, { guide: { id: stranger.id } }, V2018_01),
      404,
      'not_found',
    );
    expect(await profileOf(stranger)).toBeUndefined();
  });
});

describe('before 2018-02-26, the schedule rule', () => {
  it('is skipped for a delegate named by its user id, never for a guide id', async () => {
    const nobody = await createGuide(t.app, shop.seller, shop.seller.id, {
      name: 'No hours',
      schedules: [],
    });
    const away = await createGuide(t.app, shop.seller, shop.seller.id, {
      name: 'Away',
      schedules: [
        { type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6] },
        { type: 'unavailable', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6] },
      ],
    });
    const event = await createEvent(t.app, shop.seller, shop.experienceId, '2030-11-01T09:00');
    for (const guide of [nobody, away]) {
      const body = expectProblem(
        await assign(t.app, shop.seller, event.id, { guide: { id: guide.id } }, V2018_01),
        409,
        'guide_unavailable',
      );
      // Problem bodies name the guide as that version does: a guide without a user as is.
      expect(body.guide).toEqual({ id: guide.id });
    }
    expect(await guidesOn(event.id)).toEqual([]);

    // A delegate (its profile made now, with no schedule) is assigned as that version did.
    const user = await delegate(t.app, shop.seller, ['ROLE_GUIDE'], 'Zoe');
    const assigned = await assign(
      t.app,
      shop.seller,
      event.id,
      { guide: { id: user.id } },
      V2018_01,
    );
    expect(assigned.statusCode, assigned.body).toBe(201);
    expect(assigned.json().guides).toEqual([user.id]);
  });

  it('holds on POST /api/events too: a guide id is checked, a delegate by user id is not', async () => {
    const nobody = await createGuide(t.app, shop.seller, shop.seller.id, {
      name: 'No hours either',
      schedules: [],
    });
    const start = '2030-11-02T09:00';
    expectProblem(await upsert(start, { guides: [nobody.id] }, V2018_01), 409, 'guide_unavailable');
    const user = await delegate(t.app, shop.seller, ['ROLE_GUIDE'], 'Yves');
    const made = await upsert(start, { guides: [user.id] }, V2018_01);
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().guides).toEqual([user.id]);
  });
});
