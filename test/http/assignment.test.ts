/**
 * Assigning guides to events through HTTP (DESIGN.md section 6, Assigning guides): the three
 * body shapes, the schedule rule (409 guide_unavailable, never overridden), the overlap rule
 * (409 guide_conflict with the conflicting event, overridden by forceConfirm), idempotence,
 * unassigning, who may do it, what guides see, guides given to POST /api/events, the
 * experience's guide preferences, and the guides in confirmation emails.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml, renderConfirmation } from '../../src/mail/confirmation.template.js';
import { loadConfirmation } from '../../src/mail/index.js';
import {
  as,
  createAdmin,
  createTestApp,
  expectProblem,
  signUp,
  type Account,
  type TestApp,
} from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import {
  ALWAYS,
  DAYTIME,
  assign,
  createEvent,
  createGuide,
  delegate,
  idsOf,
  readEvent,
  unassign,
  type EventView,
  guideIdsOf,
} from '../helpers/guides.js';

let t: TestApp;
let shop: Shop;
let seller: Account;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
  seller = shop.seller;
});
afterAll(async () => t.close());

const UNKNOWN = '0123456789abcdef01234567';

/** An event of the shop's experience (Europe/Paris, 90 minutes) at a local start. */
const event = (start: string, fields: Record<string, unknown> = {}) =>
  createEvent(t.app, seller, shop.experienceId, start, fields);
const guidesOn = async (eventId: string) =>
  (
    await t.database.db
      .selectFrom('events')
      .select('guide_ids')
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow()
  ).guide_ids;
/** The audits of the event's `event.update`s, oldest first. */
const updatesOf = async (eventId: string) =>
  (
    await t.database.db
      .selectFrom('domain_events')
      .select('audit')
      .where('name', '=', 'event.update')
      .where(sql<string>`object ->> 'id'`, '=', eventId)
      .orderBy('seq')
      .execute()
  ).map((e) => e.audit);
/**
 * Events listed latest start first: these tests make events in one second, and ids of one
 * second have no order among themselves (src/db/ids.ts), so the default order (-id) would
 * not say which comes first; here start order is creation order.
 */
const listEvents = (account: Account, query = '') => {
  const sorted = query.includes('sort=') ? query : `${query}${query ? '&' : '?'}sort=-start`;
  return as(t.app, account, { method: 'GET', url: `/api/events${sorted}` });
};
const postEvent = (account: Account, payload: Record<string, unknown>) =>
  as(t.app, account, { method: 'POST', url: '/api/events', payload });

describe('POST /api/events/{id}/guides', () => {
  it('accepts the three body shapes and answers 201 with the event', async () => {
    const guide = await createGuide(t.app, seller, seller.id);
    const bodies = [{ guide: { id: guide.id } }, { id: guide.id }, { id: { id: guide.id } }];
    for (const [i, body] of bodies.entries()) {
      const target = await event(`2030-07-0${i + 1}T09:00`);
      const response = await assign(t.app, seller, target.id, body);
      expect(response.statusCode, `${JSON.stringify(body)}: ${response.body}`).toBe(201);
      expect(response.json()).toEqual({
        ...target,
        guides: [{ status: 'pending', guide: { id: guide.id } }],
        updatedAt: expect.any(String),
      });
      expect(await guidesOn(target.id)).toEqual([guide.id]);
    }
  });

  it('refuses malformed bodies with 400 naming the field, and assigns nothing', async () => {
    const guide = await createGuide(t.app, seller, seller.id);
    const target = await event('2030-07-05T09:00');
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'guide.id'],
      [{ guide: {} }, 'guide.id'],
      [{ guide: { id: 'nope' } }, 'guide.id'],
      [{ guide: { id: guide.id, forceConfirm: 'yes' } }, 'guide.forceConfirm'],
      [{ guide: { id: guide.id, colour: 'red' } }, 'guide.colour'],
      [{ guide: { id: guide.id }, id: guide.id }, 'guide.id'],
      [{ id: 42 }, 'id'],
      [{ id: { id: 'nope' } }, 'id'],
      [{ guide: { id: guide.id }, colour: 'red' }, 'colour'],
    ];
    for (const [payload, field] of cases) {
      const body = expectProblem(
        await assign(t.app, seller, target.id, payload),
        400,
        'validation_failed',
      );
      expect(
        body.errors?.map((e) => e.name),
        JSON.stringify(payload),
      ).toContain(field);
    }
    expect(await guidesOn(target.id)).toEqual([]);
  });

  it('answers 404 for an unknown event, an unknown guide and another seller’s guide', async () => {
    const other = await openShop(t.app);
    const theirs = await createGuide(t.app, other.seller, other.seller.id);
    const target = await event('2030-07-06T09:00');
    for (const id of [UNKNOWN, theirs.id, seller.id]) {
      const body = expectProblem(
        await assign(t.app, seller, target.id, { guide: { id } }),
        404,
        'not_found',
      );
      expect(body.errors?.[0]).toMatchObject({ in: 'body', name: 'guide.id' });
    }
    const mine = await createGuide(t.app, seller, seller.id);
    expectProblem(
      await assign(t.app, seller, UNKNOWN, { guide: { id: mine.id } }),
      404,
      'not_found',
    );
    // The other seller cannot put its guide on this seller's event either.
    expectProblem(
      await assign(t.app, other.seller, target.id, { guide: { id: theirs.id } }),
      404,
      'not_found',
    );
    expect(await guidesOn(target.id)).toEqual([]);
  });

  it('is idempotent: assigning twice answers 201 and lists the guide once', async () => {
    const guide = await createGuide(t.app, seller, seller.id);
    const target = await event('2030-07-07T09:00');
    const first = await assign(t.app, seller, target.id, { guide: { id: guide.id } });
    for (const body of [
      { guide: { id: guide.id } },
      { id: guide.id },
      { guide: { id: guide.id, forceConfirm: true } },
    ]) {
      const again = await assign(t.app, seller, target.id, body);
      expect(again.statusCode).toBe(201);
      expect(again.json()).toEqual(first.json());
    }
    expect(await guidesOn(target.id)).toEqual([guide.id]);
  });

  it('announces the assignment once: five identical POSTs at once are 201 with one event.update', async () => {
    const guide = await createGuide(t.app, seller, seller.id);
    const target = await event('2030-07-08T09:00');
    const announced = await updatesOf(target.id);
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map(() => assign(t.app, seller, target.id, { guide: { id: guide.id } })),
    );
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201]);
    // Each answers with the event as it is: the guide on it, once.
    for (const answer of answers) expect(guideIdsOf(answer.json())).toEqual([guide.id]);
    const audits = (await updatesOf(target.id)).slice(announced.length);
    expect(audits).toEqual([
      { guides: { old: [], new: [{ status: 'pending', guide: { id: guide.id } }] } },
    ]);
    // A retry later changes nothing and announces nothing either.
    expect((await assign(t.app, seller, target.id, { id: guide.id })).statusCode).toBe(201);
    expect(await updatesOf(target.id)).toHaveLength(announced.length + 1);
  });
});

describe('the schedule rule (409 guide_unavailable, never overridden)', () => {
  it('refuses a guide whose schedules do not cover the event, even with forceConfirm', async () => {
    // 2030-08-06 is a Tuesday; the event runs 09:00-10:30 Paris time.
    const target = await event('2030-08-06T09:00');
    const profiles: [string, Record<string, unknown>[]][] = [
      ['no schedule', []],
      ['only unavailable', [{ type: 'unavailable', repeat: 'weekly', days: [2] }]],
      ['Mondays only', [{ ...DAYTIME, days: [1] }]],
      ['ends too early', [{ ...ALWAYS, timeRanges: [{ startTime: 800, endTime: 1000 }] }]],
      ['starts too late', [{ ...ALWAYS, timeRanges: [{ startTime: 930, endTime: 1800 }] }]],
      // Hours are the event's local (Paris) time: 07:00-08:30 UTC is not 09:00-10:30 local.
      ['UTC hours', [{ ...ALWAYS, timeRanges: [{ startTime: 700, endTime: 830 }] }]],
      ['before its start', [{ ...ALWAYS, start: '2030-09-01' }]],
      ['after its end', [{ ...ALWAYS, end: '2030-08-05' }]],
      ['day off', [ALWAYS, { type: 'unavailable', repeat: 'custom', dates: ['2030-08-06'] }]],
      [
        'busy hour',
        [
          ALWAYS,
          {
            type: 'unavailable',
            repeat: 'weekly',
            days: [2],
            timeRanges: [{ startTime: 1000, endTime: 1100 }],
          },
        ],
      ],
      ['other dates only', [{ type: 'available', repeat: 'custom', dates: ['2030-08-07'] }]],
    ];
    for (const [label, schedules] of profiles) {
      const guide = await createGuide(t.app, seller, seller.id, { name: label, schedules });
      for (const body of [
        { guide: { id: guide.id } },
        { guide: { id: guide.id, forceConfirm: true } },
        { id: guide.id, forceConfirm: true },
      ]) {
        const problem = expectProblem(
          await assign(t.app, seller, target.id, body),
          409,
          'guide_unavailable',
        );
        expect(problem.guide, label).toEqual({ id: guide.id });
        expect(String(problem.detail), label).toContain(label);
      }
    }
    expect(await guidesOn(target.id)).toEqual([]);
  });

  it('takes a guide whose schedules cover the event in its local time', async () => {
    const target = await event('2030-08-06T09:00');
    const profiles: [string, Record<string, unknown>[]][] = [
      ['all day', [ALWAYS]],
      ['exact hours', [{ ...ALWAYS, timeRanges: [{ startTime: 900, endTime: 1030 }] }]],
      [
        'back-to-back blocks',
        [
          {
            ...ALWAYS,
            timeRanges: [
              { startTime: 800, endTime: 930 },
              { startTime: 930, endTime: 1200 },
            ],
          },
        ],
      ],
      ['that date', [{ type: 'available', repeat: 'custom', dates: ['2030-08-06'] }]],
      [
        'busy later',
        [
          ALWAYS,
          {
            type: 'unavailable',
            repeat: 'custom',
            dates: ['2030-08-06'],
            timeRanges: [{ startTime: 1030, endTime: 1200 }],
          },
        ],
      ],
    ];
    const assigned: string[] = [];
    for (const [label, schedules] of profiles) {
      const guide = await createGuide(t.app, seller, seller.id, { name: label, schedules });
      const response = await assign(t.app, seller, target.id, { guide: { id: guide.id } });
      expect(response.statusCode, `${label}: ${response.body}`).toBe(201);
      assigned.push(guide.id);
    }
    expect(await guidesOn(target.id)).toEqual(assigned);
  });

  it('follows schedule changes: a guide becomes assignable when a schedule is added', async () => {
    const guide = await createGuide(t.app, seller, seller.id, { schedules: [] });
    const target = await event('2030-08-07T14:00');
    expectProblem(
      await assign(t.app, seller, target.id, { guide: { id: guide.id } }),
      409,
      'guide_unavailable',
    );
    await as(t.app, seller, {
      method: 'POST',
      url: `/api/sellers/${seller.id}/guides/${guide.id}/schedules`,
      payload: DAYTIME,
    });
    expect((await assign(t.app, seller, target.id, { guide: { id: guide.id } })).statusCode).toBe(
      201,
    );
  });
});

describe('the overlap rule (409 guide_conflict unless forceConfirm)', () => {
  it('refuses a guide on an overlapping event, naming that event; forceConfirm overrides', async () => {
    const guide = await createGuide(t.app, seller, seller.id);
    // 09:00-10:30, 10:00-11:30 (overlaps the first), 10:30-12:00 (touches the first).
    const first = await event('2030-09-03T09:00');
    const overlapping = await event('2030-09-03T10:00');
    const touching = await event('2030-09-03T10:30');
    const onFirst = (await assign(t.app, seller, first.id, { guide: { id: guide.id } })).json();

    const problem = expectProblem(
      await assign(t.app, seller, overlapping.id, { guide: { id: guide.id } }),
      409,
      'guide_conflict',
    );
    expect(problem.guide).toEqual({ id: guide.id });
    expect(problem.event).toEqual(onFirst);
    expect(await guidesOn(overlapping.id)).toEqual([]);
    expectProblem(
      await assign(t.app, seller, overlapping.id, { guide: { id: guide.id, forceConfirm: false } }),
      409,
      'guide_conflict',
    );

    // Touching ends are no overlap.
    expect((await assign(t.app, seller, touching.id, { guide: { id: guide.id } })).statusCode).toBe(
      201,
    );

    // forceConfirm overrides the conflict, in both body shapes that carry it.
    const forced = await assign(t.app, seller, overlapping.id, {
      guide: { id: guide.id, forceConfirm: true },
    });
    expect(forced.statusCode).toBe(201);
    expect(guideIdsOf(forced.json())).toEqual([guide.id]);
    const late = await event('2030-09-03T11:00');
    expectProblem(await assign(t.app, seller, late.id, { id: guide.id }), 409, 'guide_conflict');
    expect(
      (await assign(t.app, seller, late.id, { id: guide.id, forceConfirm: true })).statusCode,
    ).toBe(201);
    for (const e of [first, overlapping, touching, late]) {
      expect(await guidesOn(e.id)).toEqual([guide.id]);
    }
  });

  it('counts events of the seller’s other experiences, and not other guides’ events', async () => {
    const bikes = await as(t.app, seller, {
      method: 'POST',
      url: '/api/experiences',
      payload: {
        name: 'City Bikes',
        price: 10,
        priceType: 'person',
        currency: 'EUR',
        duration: 240,
        timezone: 'Europe/London',
        schedules: [
          { type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: [800] },
        ],
      },
    });
    expect(bikes.statusCode).toBe(201);
    const guide = await createGuide(t.app, seller, seller.id);
    const colleague = await createGuide(t.app, seller, seller.id, { name: 'Colleague' });
    // 08:00-12:00 London is 09:00-13:00 Paris: it overlaps the kayak at 10:00 Paris.
    const ride = await createEvent(t.app, seller, bikes.json().id, '2030-09-04T08:00');
    const kayak = await event('2030-09-04T10:00');
    await assign(t.app, seller, ride.id, { guide: { id: guide.id } });
    const problem = expectProblem(
      await assign(t.app, seller, kayak.id, { guide: { id: guide.id } }),
      409,
      'guide_conflict',
    );
    expect((problem.event as EventView).id).toBe(ride.id);
    expect(
      (await assign(t.app, seller, kayak.id, { guide: { id: colleague.id } })).statusCode,
    ).toBe(201);
    // After the guide leaves the ride, the kayak is free for it.
    expect((await unassign(t.app, seller, ride.id, guide.id)).statusCode).toBe(200);
    expect(
      guideIdsOf((await assign(t.app, seller, kayak.id, { guide: { id: guide.id } })).json()),
    ).toEqual([colleague.id, guide.id]);
  });
});

describe('DELETE /api/events/{id}/guides/{guideId}', () => {
  it('takes the guide off once: five identical DELETEs at once are one 200, four 404, one event.update', async () => {
    const guide = await createGuide(t.app, seller, seller.id);
    const target = await event('2030-10-02T09:00');
    expect((await assign(t.app, seller, target.id, { guide: { id: guide.id } })).statusCode).toBe(
      201,
    );
    const announced = await updatesOf(target.id);
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map(() => unassign(t.app, seller, target.id, guide.id)),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 404, 404, 404, 404]);
    for (const answer of answers.filter((r) => r.statusCode === 404)) {
      expectProblem(answer, 404, 'not_found');
    }
    const audits = (await updatesOf(target.id)).slice(announced.length);
    expect(audits).toEqual([
      { guides: { old: [{ status: 'pending', guide: { id: guide.id } }], new: [] } },
    ]);
    expect(await guidesOn(target.id)).toEqual([]);
  });

  it('takes the guide off and answers 200 with the event; 404 when it is not on it', async () => {
    const guide = await createGuide(t.app, seller, seller.id);
    const other = await createGuide(t.app, seller, seller.id, { name: 'Other' });
    const target = await event('2030-10-01T09:00');
    await assign(t.app, seller, target.id, { guide: { id: guide.id } });
    await assign(t.app, seller, target.id, { guide: { id: other.id } });
    const removed = await unassign(t.app, seller, target.id, guide.id);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ object: 'event', id: target.id });
    expect(guideIdsOf(removed.json())).toEqual([other.id]);
    expect(await guidesOn(target.id)).toEqual([other.id]);
    expectProblem(await unassign(t.app, seller, target.id, guide.id), 404, 'not_found');
    expectProblem(await unassign(t.app, seller, target.id, UNKNOWN), 404, 'not_found');
    expectProblem(await unassign(t.app, seller, UNKNOWN, other.id), 404, 'not_found');
    expectProblem(await unassign(t.app, seller, target.id, 'nope'), 400, 'validation_failed');
    expect(await guidesOn(target.id)).toEqual([other.id]);
  });
});

describe('who may assign guides', () => {
  it('is the seller, seller-admins, guide managers and admins; other staff get 403, outsiders 404', async () => {
    const guide = await createGuide(t.app, seller, seller.id);
    const allowed: [string, Account][] = [
      ['seller', seller],
      ['seller admin', await delegate(t.app, seller, ['ROLE_SELLER_ADMIN'])],
      ['guide manager', await delegate(t.app, seller, ['ROLE_GUIDE_MANAGER'])],
      ['admin', await createAdmin(t)],
    ];
    for (const [i, [who, account]] of allowed.entries()) {
      const target = await event(`2030-10-1${i}T09:00`);
      const added = await assign(t.app, account, target.id, { guide: { id: guide.id } });
      expect(added.statusCode, `${who}: ${added.body}`).toBe(201);
      const removed = await unassign(t.app, account, target.id, guide.id);
      expect(removed.statusCode, `${who}: ${removed.body}`).toBe(200);
    }

    const target = await event('2030-10-20T09:00');
    const keep = await createGuide(t.app, seller, seller.id, { name: 'Kept' });
    await assign(t.app, seller, target.id, { guide: { id: keep.id } });
    const gusUser = await delegate(t.app, seller, ['ROLE_GUIDE'], 'Gus');
    const gus = await createGuide(t.app, seller, seller.id, {
      name: 'Gus',
      user: { id: gusUser.id },
    });
    await assign(t.app, seller, target.id, { guide: { id: gus.id } });
    const refused: [string, Account, number, string][] = [
      ['reservation', await delegate(t.app, seller, ['ROLE_RESERVATION']), 403, 'forbidden'],
      ['curator', await delegate(t.app, seller, ['ROLE_CURATOR']), 403, 'forbidden'],
      // A guide sees the events it is on, but does not staff them.
      ['guide on the event', gusUser, 403, 'forbidden'],
      ['stranger', await signUp(t.app), 404, 'not_found'],
      ['other seller', (await openShop(t.app)).seller, 404, 'not_found'],
    ];
    for (const [who, account, status, code] of refused) {
      const added = await assign(t.app, account, target.id, { guide: { id: guide.id } });
      expect(added.statusCode, `${who}: ${added.body}`).toBe(status);
      expectProblem(added, status, code);
      expectProblem(await unassign(t.app, account, target.id, keep.id), status, code);
    }
    expectProblem(
      await assign(t.app, null, target.id, { guide: { id: guide.id } }),
      401,
      'authentication_required',
    );
    expectProblem(await unassign(t.app, null, target.id, keep.id), 401, 'authentication_required');
    expect(await guidesOn(target.id)).toEqual([keep.id, gus.id]);
  });
});

describe('what guides see', () => {
  let owner: Shop;
  beforeAll(async () => {
    owner = await openShop(t.app);
  });

  it('GET /api/events?guides=<id> lists the events of a guide', async () => {
    const s = owner.seller;
    const ann = await createGuide(t.app, s, s.id, { name: 'Ann' });
    const ben = await createGuide(t.app, s, s.id, { name: 'Ben' });
    const e1 = await createEvent(t.app, s, owner.experienceId, '2030-11-04T09:00');
    const e2 = await createEvent(t.app, s, owner.experienceId, '2030-11-05T09:00');
    const e3 = await createEvent(t.app, s, owner.experienceId, '2030-11-06T09:00');
    await assign(t.app, s, e1.id, { guide: { id: ann.id } });
    await assign(t.app, s, e2.id, { guide: { id: ann.id } });
    await assign(t.app, s, e2.id, { guide: { id: ben.id } });
    await assign(t.app, s, e3.id, { guide: { id: ben.id } });
    const cases: [string, string[]][] = [
      [`guides=${ann.id}`, [e2.id, e1.id]],
      [`guides=${ben.id}`, [e3.id, e2.id]],
      [`guides[in]=${ann.id},${ben.id}`, [e3.id, e2.id, e1.id]],
      [`guides=${UNKNOWN}`, []],
      [`guides=${ann.id}&start[gte]=2030-11-05T00:00:00Z`, [e2.id]],
    ];
    for (const [query, expected] of cases) {
      const response = await listEvents(s, `?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(idsOf(response), query).toEqual(expected);
      expect(
        response.json().data.every((e: EventView) => e.guides.length > 0),
        query,
      ).toBe(true);
    }
    await unassign(t.app, s, e1.id, ann.id);
    expect(idsOf(await listEvents(s, `?guides=${ann.id}`))).toEqual([e2.id]);
    // Another seller's staff filtering on the guide see nothing.
    expect(idsOf(await listEvents(seller, `?guides=${ann.id}`))).toEqual([]);
  });

  it('shows a ROLE_GUIDE delegate the events its guide profile is on, and nothing else', async () => {
    const s = owner.seller;
    const gusUser = await delegate(t.app, s, ['ROLE_GUIDE'], 'Gus');
    const gus = await createGuide(t.app, s, s.id, { name: 'Gus', user: { id: gusUser.id } });
    const on = await createEvent(t.app, s, owner.experienceId, '2030-11-11T09:00');
    const off = await createEvent(t.app, s, owner.experienceId, '2030-11-11T14:00');
    const later = await createEvent(t.app, s, owner.experienceId, '2030-11-12T09:00');
    await assign(t.app, s, on.id, { guide: { id: gus.id } });
    await assign(t.app, s, later.id, { guide: { id: gus.id } });

    expect(idsOf(await listEvents(gusUser))).toEqual([later.id, on.id]);
    expect(idsOf(await listEvents(gusUser, `?experience=${owner.experienceId}`))).toEqual([
      later.id,
      on.id,
    ]);
    expect(idsOf(await listEvents(gusUser, `?id=${off.id}`))).toEqual([]);
    const seen = await readEvent(t.app, gusUser, on.id);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ id: on.id });
    expect(guideIdsOf(seen.json())).toEqual([gus.id]);
    expectProblem(await readEvent(t.app, gusUser, off.id), 404, 'not_found');

    await unassign(t.app, s, later.id, gus.id);
    expect(idsOf(await listEvents(gusUser))).toEqual([on.id]);
    expectProblem(await readEvent(t.app, gusUser, later.id), 404, 'not_found');

    // A ROLE_GUIDE delegate without a profile, and a profile's user who is not a ROLE_GUIDE
    // delegate, see nothing.
    const noProfile = await delegate(t.app, s, ['ROLE_GUIDE']);
    expect(idsOf(await listEvents(noProfile))).toEqual([]);
    expectProblem(await readEvent(t.app, noProfile, on.id), 404, 'not_found');
    // (a guide may only be linked to a known delegate: this one stops being one afterwards)
    const outsider = await delegate(t.app, s, ['ROLE_GUIDE'], 'Out');
    const profile = await createGuide(t.app, s, s.id, { name: 'Out', user: { id: outsider.id } });
    const delegation = (
      await as(t.app, s, { method: 'GET', url: `/api/users/${s.id}/delegates?user=${outsider.id}` })
    ).json().data[0];
    await as(t.app, s, { method: 'DELETE', url: `/api/users/${s.id}/delegates/${delegation.id}` });
    await assign(t.app, s, on.id, { guide: { id: profile.id } });
    expect(idsOf(await listEvents(outsider))).toEqual([]);
    expectProblem(await readEvent(t.app, outsider, on.id), 404, 'not_found');
  });
});

describe('guides given to POST /api/events', () => {
  it('assigns them under the same rules, and changes nothing when one is refused', async () => {
    const ok = await createGuide(t.app, seller, seller.id, { name: 'Ready' });
    const away = await createGuide(t.app, seller, seller.id, { name: 'Away', schedules: [] });
    const busy = await createGuide(t.app, seller, seller.id, { name: 'Busy' });
    const theirs = await (async () => {
      const other = await openShop(t.app);
      return createGuide(t.app, other.seller, other.seller.id);
    })();
    const elsewhere = await event('2030-12-02T09:30', { guides: [busy.id] });
    expect(guideIdsOf(elsewhere)).toEqual([busy.id]);
    const eventCount = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('events')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    const before = await eventCount();
    const payload = { experience: { id: shop.experienceId }, start: '2030-12-02T09:00' };
    expectProblem(
      await postEvent(seller, { ...payload, guides: [ok.id, away.id] }),
      409,
      'guide_unavailable',
    );
    const conflict = expectProblem(
      await postEvent(seller, { ...payload, guides: [busy.id] }),
      409,
      'guide_conflict',
    );
    expect((conflict.event as EventView).id).toBe(elsewhere.id);
    expectProblem(await postEvent(seller, { ...payload, guides: [theirs.id] }), 404, 'not_found');
    expectProblem(await postEvent(seller, { ...payload, guides: [UNKNOWN] }), 404, 'not_found');
    // No forceConfirm here: the body has no such field.
    expectProblem(
      await postEvent(seller, { ...payload, guides: [busy.id], forceConfirm: true }),
      400,
      'validation_failed',
    );
    expect(await eventCount()).toBe(before);

    const created = await postEvent(seller, { ...payload, guides: [ok.id] });
    expect(created.statusCode, created.body).toBe(201);
    expect(guideIdsOf(created.json())).toEqual([ok.id]);
    // An update refused for a guide keeps the event as it was.
    expectProblem(
      await postEvent(seller, { ...payload, max: 3, guides: [ok.id, busy.id] }),
      409,
      'guide_conflict',
    );
    expect((await readEvent(t.app, seller, created.json().id)).json()).toEqual(created.json());
    // The list is the event's guides afterwards: [] takes them all off, absent keeps them.
    const other = await createGuide(t.app, seller, seller.id, { name: 'Second' });
    const both = await postEvent(seller, { ...payload, guides: [ok.id, other.id] });
    expect(guideIdsOf(both.json()).sort()).toEqual([ok.id, other.id].sort());
    expect((await postEvent(seller, { ...payload, max: 4 })).json().guides).toEqual(
      both.json().guides,
    );
    expect(
      guideIdsOf((await postEvent(seller, { ...payload, guides: [other.id] })).json()),
    ).toEqual([other.id]);
    expect((await postEvent(seller, { ...payload, guides: [] })).json().guides).toEqual([]);
  });

  it('checks the guides it keeps again when the event grows: 409 and the event as it was', async () => {
    const own = await openShop(t.app);
    const at = (start: string, fields: Record<string, unknown> = {}) =>
      createEvent(t.app, own.seller, own.experienceId, start, fields);
    const guide = await createGuide(t.app, own.seller, own.seller.id, { name: 'Kept' });
    const daytime = await createGuide(t.app, own.seller, own.seller.id, {
      name: 'Daytime',
      schedules: [DAYTIME],
    });
    // 90 minutes: 09:00-10:30 and 10:30-12:00 touch; 16:30-18:00 ends as the day does.
    const morning = await at('2031-01-07T09:00', { guides: [guide.id] });
    const next = await at('2031-01-07T10:30', { guides: [guide.id] });
    const evening = await at('2031-01-07T16:30', { guides: [daytime.id] });
    const grow = await as(t.app, own.seller, {
      method: 'PUT',
      url: `/api/experiences/${own.experienceId}`,
      payload: { duration: 120 },
    });
    expect(grow.statusCode, grow.body).toBe(200);
    const upsert = (start: string, fields: Record<string, unknown> = {}) =>
      postEvent(own.seller, { experience: { id: own.experienceId }, start, ...fields });

    // Without a guides list, and with one that keeps the guide: both refused.
    for (const fields of [{}, { guides: [guide.id] }]) {
      const conflict = expectProblem(
        await upsert('2031-01-07T09:00', fields),
        409,
        'guide_conflict',
      );
      expect(conflict.guide).toEqual({ id: guide.id });
      expect((conflict.event as EventView).id).toBe(next.id);
    }
    expect((await readEvent(t.app, own.seller, morning.id)).json()).toEqual(morning);
    expectProblem(await upsert('2031-01-07T16:30'), 409, 'guide_unavailable');
    expect((await readEvent(t.app, own.seller, evening.id)).json()).toEqual(evening);
    // Taking the guide off lets the event grow.
    const grown = await upsert('2031-01-07T09:00', { guides: [] });
    expect(grown.statusCode, grown.body).toBe(201);
    expect(Date.parse((await readEvent(t.app, own.seller, morning.id)).json().end)).toBe(
      Date.parse(morning.start) + 120 * 60_000,
    );
  });

  it('lets an event shrink, or grow over an overlap the guide was already given', async () => {
    const own = await openShop(t.app);
    const at = (start: string, fields: Record<string, unknown> = {}) =>
      createEvent(t.app, own.seller, own.experienceId, start, fields);
    const guide = await createGuide(t.app, own.seller, own.seller.id, { name: 'Forced' });
    // 09:00-10:30, and 10:00-11:30 given to the same guide with forceConfirm.
    const first = await at('2031-01-08T09:00', { guides: [guide.id] });
    const second = await at('2031-01-08T10:00');
    const forced = await assign(t.app, own.seller, second.id, {
      guide: { id: guide.id, forceConfirm: true },
    });
    expect(forced.statusCode).toBe(201);
    const duration = async (minutes: number) => {
      const changed = await as(t.app, own.seller, {
        method: 'PUT',
        url: `/api/experiences/${own.experienceId}`,
        payload: { duration: minutes },
      });
      expect(changed.statusCode, changed.body).toBe(200);
    };
    const upsert = (start: string) =>
      postEvent(own.seller, { experience: { id: own.experienceId }, start, max: 9 });
    const endOf = async (id: string) =>
      Date.parse((await readEvent(t.app, own.seller, id)).json().end);
    // Longer (09:00-11:00): its only overlap is the one accepted already.
    await duration(120);
    const longer = await upsert('2031-01-08T09:00');
    expect(longer.statusCode, longer.body).toBe(201);
    expect(await endOf(first.id)).toBe(Date.parse(first.start) + 120 * 60_000);
    // Shorter (10:00-11:00): a smaller window adds no conflict.
    await duration(60);
    const shorter = await upsert('2031-01-08T10:00');
    expect(shorter.statusCode, shorter.body).toBe(201);
    expect(await endOf(second.id)).toBe(Date.parse(second.start) + 60 * 60_000);
  });

  it('needs guide rights for the guides, not for the event', async () => {
    const guide = await createGuide(t.app, seller, seller.id);
    const clerk = await delegate(t.app, seller, ['ROLE_RESERVATION']);
    const manager = await delegate(t.app, seller, ['ROLE_GUIDE_MANAGER']);
    const payload = { experience: { id: shop.experienceId }, start: '2030-12-03T09:00' };
    expectProblem(await postEvent(clerk, { ...payload, guides: [guide.id] }), 403, 'forbidden');
    const plain = await postEvent(clerk, payload);
    expect(plain.statusCode).toBe(201);
    expect(plain.json().guides).toEqual([]);
    const staffed = await postEvent(manager, { ...payload, guides: [guide.id] });
    expect(staffed.statusCode, staffed.body).toBe(201);
    expect(staffed.json()).toMatchObject({ id: plain.json().id });
    expect(guideIdsOf(staffed.json())).toEqual([guide.id]);
  });
});

describe('experience guide preferences', () => {
  const prefs = (
    account: Account | null,
    method: 'POST' | 'PUT',
    experienceId: string,
    payload: Record<string, unknown>,
  ) => as(t.app, account, { method, url: `/api/experiences/${experienceId}/guide`, payload });
  const experience = async (id: string) =>
    (await as(t.app, seller, { method: 'GET', url: `/api/experiences/${id}` })).json();

  it('creates them once (201, then 409), changes them with PUT (200), shows them as guide', async () => {
    const own = await openShop(t.app);
    const id = own.experienceId;
    expectProblem(await prefs(own.seller, 'PUT', id, { required: 1 }), 404, 'not_found');
    const created = await prefs(own.seller, 'POST', id, {});
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      object: 'experience',
      id,
      guide: { required: 0, autoAssign: false, includeInConfirmation: false },
    });
    expectProblem(
      await prefs(own.seller, 'POST', id, { required: 3 }),
      409,
      'guide_preferences_exist',
    );
    const changed = await prefs(own.seller, 'PUT', id, { required: 2, autoAssign: true });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().guide).toEqual({
      required: 2,
      autoAssign: true,
      includeInConfirmation: false,
    });
    expect(
      (await prefs(own.seller, 'PUT', id, { includeInConfirmation: true })).json().guide,
    ).toEqual({ required: 2, autoAssign: true, includeInConfirmation: true });
    expect(
      (await as(t.app, null, { method: 'GET', url: `/api/experiences/${id}` })).json().guide,
    ).toEqual({ required: 2, autoAssign: true, includeInConfirmation: true });

    const full = await openShop(t.app);
    const set = await prefs(full.seller, 'POST', full.experienceId, {
      required: 1,
      autoAssign: true,
      includeInConfirmation: true,
    });
    expect(set.json().guide).toEqual({
      required: 1,
      autoAssign: true,
      includeInConfirmation: true,
    });
  });

  it('refuses bad values with 400 naming the field, and changes nothing', async () => {
    const own = await openShop(t.app);
    const id = own.experienceId;
    const cases: [Record<string, unknown>, string][] = [
      [{ required: -1 }, 'required'],
      [{ required: 1.5 }, 'required'],
      [{ required: '2' }, 'required'],
      [{ required: 101 }, 'required'],
      [{ autoAssign: 'yes' }, 'autoAssign'],
      [{ includeInConfirmation: 1 }, 'includeInConfirmation'],
      [{ colour: 'red' }, 'colour'],
    ];
    for (const [payload, field] of cases) {
      const body = expectProblem(
        await prefs(own.seller, 'POST', id, payload),
        400,
        'validation_failed',
      );
      expect(body.errors?.[0]?.name, JSON.stringify(payload)).toBe(field);
    }
    expect(await experience(id)).not.toHaveProperty('guide');
    await prefs(own.seller, 'POST', id, { required: 1 });
    for (const [payload, field] of cases) {
      const body = expectProblem(
        await prefs(own.seller, 'PUT', id, payload),
        400,
        'validation_failed',
      );
      expect(body.errors?.[0]?.name, JSON.stringify(payload)).toBe(field);
    }
    expectProblem(await prefs(own.seller, 'PUT', id, {}), 400, 'validation_failed');
    expect(
      (await as(t.app, own.seller, { method: 'GET', url: `/api/experiences/${id}` })).json().guide,
    ).toEqual({ required: 1, autoAssign: false, includeInConfirmation: false });
  });

  it('is for the seller, its curators, seller-admins and guide managers', async () => {
    const own = await openShop(t.app);
    const s = own.seller;
    const id = own.experienceId;
    expect((await prefs(s, 'POST', id, {})).statusCode).toBe(201);
    for (const roles of [['ROLE_GUIDE_MANAGER'], ['ROLE_CURATOR'], ['ROLE_SELLER_ADMIN']]) {
      const staff = await delegate(t.app, s, roles);
      const response = await prefs(staff, 'PUT', id, { required: roles[0]!.length });
      expect(response.statusCode, `${roles[0]}: ${response.body}`).toBe(200);
    }
    const required = (await experience(id)).guide.required;
    for (const roles of [['ROLE_RESERVATION'], ['ROLE_GUIDE']]) {
      const staff = await delegate(t.app, s, roles);
      expectProblem(await prefs(staff, 'PUT', id, { required: 9 }), 403, 'forbidden');
    }
    expectProblem(await prefs(await signUp(t.app), 'PUT', id, { required: 9 }), 403, 'forbidden');
    expectProblem(await prefs(null, 'PUT', id, { required: 9 }), 401, 'authentication_required');
    expectProblem(await prefs(s, 'POST', UNKNOWN, {}), 404, 'not_found');
    const hidden = await openShop(t.app, { visible: false });
    expectProblem(await prefs(s, 'POST', hidden.experienceId, {}), 404, 'not_found');
    expect((await experience(id)).guide.required).toBe(required);
  });
});

describe('confirmation emails', () => {
  it('list each guide’s name, phone, email and bio, escaped, when the experience asks', async () => {
    const own = await openShop(t.app, { name: 'Guided Kayak' });
    const s = own.seller;
    const customer = await signUp(t.app, { name: 'Cora' });
    const zoe = await createGuide(t.app, s, s.id, {
      name: 'Zoé <b>"Z"</b> & Co',
      phone: '+33 <6> 12 34',
      email: "zoe.o'neil@example.com",
      bio: 'Loves <script>alert("x")</script> & kayaks',
    });
    const max = await createGuide(t.app, s, s.id, {
      name: 'Max Plain',
      phone: '+33 6 98 76',
      email: 'max@example.com',
      bio: 'Ten years on the river.',
    });
    await as(t.app, s, {
      method: 'POST',
      url: `/api/experiences/${own.experienceId}/guide`,
      payload: { includeInConfirmation: true },
    });
    await createEvent(t.app, s, own.experienceId, '2030-08-01T09:00', {
      guides: [zoe.id, max.id],
    });
    const order = await book(t.app, customer, {
      items: [
        item(own.experienceId, '2030-08-01', 900, 2),
        item(own.experienceId, '2030-08-01', 1400),
      ],
    });
    expect(order.statusCode, order.body).toBe(201);
    const orderId = order.json().id;
    const outbox = await t.database.db
      .selectFrom('outbox')
      .selectAll()
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(outbox).toMatchObject({ kind: 'order_confirmation', recipient: customer.email });

    const render = async () => {
      const input = await loadConfirmation(t.database.db, orderId);
      expect(input).not.toBeNull();
      return renderConfirmation(input!);
    };
    const fields = (g: typeof zoe) => [g.name, String(g.phone), String(g.email), String(g.bio)];
    const shown = await render();
    for (const value of [...fields(zoe), ...fields(max)]) {
      expect(shown.text).toContain(value);
      expect(shown.html).toContain(escapeHtml(value));
    }
    expect(shown.html).toContain('Zoé &lt;b&gt;&quot;Z&quot;&lt;/b&gt; &amp; Co');
    expect(shown.html).toContain(
      'Loves &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; kayaks',
    );
    expect(shown.html).toContain('zoe.o&#39;neil@example.com');
    expect(shown.html).not.toContain('<script>');
    expect(shown.html).not.toContain('<b>"Z"</b>');
    expect(shown.html).not.toContain('<6>');
    // Only the 09:00 item's event has guides: the list appears once per part.
    expect(shown.text.split('Your guides:')).toHaveLength(2);
    expect(shown.html.split('Your guides:')).toHaveLength(2);
    expect(shown.text.indexOf('Zoé')).toBeLessThan(shown.text.indexOf('Max Plain'));

    // A guide who declined (v2018-06-26) is left out; the others stay.
    const eventId = order.json().items[0].event.id;
    const declined = await as(t.app, s, {
      method: 'PUT',
      url: `/api/events/${eventId}/guides/${max.id}`,
      payload: { status: 'declined' },
    });
    expect(declined.statusCode).toBe(200);
    const withoutMax = await render();
    expect(withoutMax.text).toContain(zoe.name);
    expect(withoutMax.text).not.toContain('Max Plain');
    await as(t.app, s, {
      method: 'PUT',
      url: `/api/events/${eventId}/guides/${max.id}`,
      payload: { status: 'confirmed' },
    });

    // Without includeInConfirmation, no guide appears.
    await as(t.app, s, {
      method: 'PUT',
      url: `/api/experiences/${own.experienceId}/guide`,
      payload: { includeInConfirmation: false },
    });
    const hidden = await render();
    for (const value of [...fields(zoe), ...fields(max)]) {
      expect(hidden.text).not.toContain(value);
      expect(hidden.html).not.toContain(escapeHtml(value));
    }
    expect(hidden.text).not.toContain('Your guides');
    expect(hidden.html).not.toContain('Your guides');
    expect(hidden.text).toContain('Guided Kayak');
  });

  it('shows no guides for an experience without guide preferences', async () => {
    const own = await openShop(t.app);
    const guide = await createGuide(t.app, own.seller, own.seller.id, {
      name: 'Unlisted Guide',
      phone: '+1 555 0100',
    });
    await createEvent(t.app, own.seller, own.experienceId, '2030-08-02T09:00', {
      guides: [guide.id],
    });
    const customer = await signUp(t.app);
    const order = await book(t.app, customer, { items: [item(own.experienceId, '2030-08-02')] });
    const input = await loadConfirmation(t.database.db, order.json().id);
    const email = renderConfirmation(input!);
    expect(email.text).not.toContain('Unlisted Guide');
    expect(email.html).not.toContain('Unlisted Guide');
    expect(email.text).not.toContain('+1 555 0100');
  });
});
