/**
 * v2018-06-26 Guide Acknowledgement over HTTP: event guides as `[{status, guide: {id}}]`,
 * the guide's answer (`PUT /api/events/{id}/guides/{guideId}`), what a declined assignment
 * means for the overlap rule and the lists, `guides` as objects on `POST /api/events`, and
 * the bare-id shape kept for older versions.
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
import { openShop, type Shop } from '../helpers/booking.js';
import {
  assign,
  createEvent,
  createGuide,
  delegate,
  readEvent,
  type Guide,
} from '../helpers/guides.js';

let t: TestApp;
let shop: Shop;
let gusUser: Account;
let gus: Guide;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
  gusUser = await delegate(t.app, shop.seller, ['ROLE_GUIDE'], 'Gus');
  gus = await createGuide(t.app, shop.seller, shop.seller.id, {
    name: 'Gus',
    user: { id: gusUser.id },
  });
});
afterAll(async () => t.close());

let minute = 0;
/** A new 90-minute event of the shop, each at its own time (no overlaps between tests). */
const newEvent = (fields: Record<string, unknown> = {}) => {
  minute += 1;
  const day = String(1 + Math.floor(minute / 4)).padStart(2, '0');
  const hour = String(8 + (minute % 4) * 3).padStart(2, '0');
  return createEvent(t.app, shop.seller, shop.experienceId, `2031-03-${day}T${hour}:00`, fields);
};
const answer = (account: Account | null, eventId: string, guideId: string, payload: unknown) =>
  as(t.app, account, {
    method: 'PUT',
    url: `/api/events/${eventId}/guides/${guideId}`,
    payload: payload as object,
  });
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
const statusesOf = async (eventId: string, headers: Record<string, string> = {}) =>
  (await readEvent(t.app, shop.seller, eventId, headers)).json().guides;

describe('the guide’s answer', () => {
  it('starts pending, then the guide confirms or declines, and may change its mind', async () => {
    const event = await newEvent();
    const assigned = await assign(t.app, shop.seller, event.id, { guide: { id: gus.id } });
    expect(assigned.json().guides).toEqual([{ status: 'pending', guide: { id: gus.id } }]);

    const confirmed = await answer(gusUser, event.id, gus.id, { status: 'confirmed' });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({
      object: 'event',
      id: event.id,
      guides: [{ status: 'confirmed', guide: { id: gus.id } }],
    });
    const declined = await answer(gusUser, event.id, gus.id, { status: 'declined' });
    expect(declined.json().guides).toEqual([{ status: 'declined', guide: { id: gus.id } }]);
    // The same answer twice changes nothing.
    expect((await answer(gusUser, event.id, gus.id, { status: 'declined' })).statusCode).toBe(200);
    const back = await answer(gusUser, event.id, gus.id, { status: 'confirmed' });
    expect(back.json().guides).toEqual([{ status: 'confirmed', guide: { id: gus.id } }]);
  });

  it('announces an answer once: the same answer again, or five at once, is one event.update', async () => {
    const event = await newEvent();
    await assign(t.app, shop.seller, event.id, { guide: { id: gus.id } });
    const announced = (await updatesOf(event.id)).length;
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map(() => answer(gusUser, event.id, gus.id, { status: 'confirmed' })),
    );
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    for (const r of answers) {
      expect(r.json().guides).toEqual([{ status: 'confirmed', guide: { id: gus.id } }]);
    }
    expect((await answer(gusUser, event.id, gus.id, { status: 'confirmed' })).statusCode).toBe(200);
    expect((await updatesOf(event.id)).slice(announced)).toEqual([
      {
        guides: {
          old: [{ status: 'pending', guide: { id: gus.id } }],
          new: [{ status: 'confirmed', guide: { id: gus.id } }],
        },
      },
    ]);
  });

  it('lets the seller’s guide managers answer for a guide', async () => {
    const event = await newEvent();
    await assign(t.app, shop.seller, event.id, { guide: { id: gus.id } });
    const manager = await delegate(t.app, shop.seller, ['ROLE_GUIDE_MANAGER'], 'Manager');
    expect(
      (await answer(manager, event.id, gus.id, { status: 'confirmed' })).json().guides,
    ).toEqual([{ status: 'confirmed', guide: { id: gus.id } }]);
  });

  it('refuses anyone else, unknown guides and bad bodies, and changes nothing', async () => {
    const event = await newEvent();
    await assign(t.app, shop.seller, event.id, { guide: { id: gus.id } });
    const otherGuideUser = await delegate(t.app, shop.seller, ['ROLE_GUIDE'], 'Olga');
    const olga = await createGuide(t.app, shop.seller, shop.seller.id, {
      name: 'Olga',
      user: { id: otherGuideUser.id },
    });
    await assign(t.app, shop.seller, event.id, { guide: { id: olga.id } });
    // Olga sees the event (she is on it) but cannot answer for Gus.
    expectProblem(
      await answer(otherGuideUser, event.id, gus.id, { status: 'declined' }),
      403,
      'forbidden',
    );
    const stranger = await signUp(t.app);
    expectProblem(
      await answer(stranger, event.id, gus.id, { status: 'declined' }),
      404,
      'not_found',
    );
    const otherShop = await openShop(t.app);
    expectProblem(
      await answer(otherShop.seller, event.id, gus.id, { status: 'declined' }),
      404,
      'not_found',
    );
    expectProblem(
      await answer(null, event.id, gus.id, { status: 'declined' }),
      401,
      'authentication_required',
    );
    const notOn = await createGuide(t.app, shop.seller, shop.seller.id, { name: 'Not on it' });
    expectProblem(
      await answer(shop.seller, event.id, notOn.id, { status: 'confirmed' }),
      404,
      'not_found',
    );
    expectProblem(
      await answer(shop.seller, 'f'.repeat(24), gus.id, { status: 'confirmed' }),
      404,
      'not_found',
    );
    for (const payload of [{}, { status: 'maybe' }, { status: 'confirmed', note: 'x' }, []]) {
      expectProblem(await answer(gusUser, event.id, gus.id, payload), 400, 'validation_failed');
    }
    expect(await statusesOf(event.id)).toEqual([
      { status: 'pending', guide: { id: gus.id } },
      { status: 'pending', guide: { id: olga.id } },
    ]);
  });
});

describe('a guide that is no longer a ROLE_GUIDE delegate of the seller', () => {
  /** The seller's delegation of `user`, as its list shows it. */
  const delegationOf = async (user: Account): Promise<string> =>
    (await as(t.app, shop.seller, { method: 'GET', url: `/api/users/${shop.seller.id}/delegates` }))
      .json()
      .data.find((d: { user: { id: string } | null }) => d.user?.id === user.id).id;

  it('is a stranger to its assignments once removed or moved to other roles (404), and changes nothing', async () => {
    const firedUser = await delegate(t.app, shop.seller, ['ROLE_GUIDE'], 'Fired');
    const fired = await createGuide(t.app, shop.seller, shop.seller.id, {
      name: 'Fired',
      user: { id: firedUser.id },
    });
    const movedUser = await delegate(t.app, shop.seller, ['ROLE_GUIDE'], 'Moved');
    const moved = await createGuide(t.app, shop.seller, shop.seller.id, {
      name: 'Moved',
      user: { id: movedUser.id },
    });
    const event = await newEvent();
    await assign(t.app, shop.seller, event.id, { guide: { id: fired.id } });
    await assign(t.app, shop.seller, event.id, { guide: { id: moved.id } });
    expect((await answer(firedUser, event.id, fired.id, { status: 'confirmed' })).statusCode).toBe(
      200,
    );

    const removed = await as(t.app, shop.seller, {
      method: 'DELETE',
      url: `/api/users/${shop.seller.id}/delegates/${await delegationOf(firedUser)}`,
    });
    expect(removed.statusCode).toBe(204);
    const demoted = await as(t.app, shop.seller, {
      method: 'POST',
      url: `/api/users/${shop.seller.id}/delegates`,
      payload: { user: { id: movedUser.id }, roles: ['ROLE_CHECKIN'] },
    });
    expect(demoted.statusCode).toBe(200);

    const stranger = await signUp(t.app);
    const strangers = expectProblem(
      await answer(stranger, event.id, fired.id, { status: 'declined' }),
      404,
      'not_found',
    );
    for (const [who, guide] of [
      [firedUser, fired],
      [movedUser, moved],
    ] as const) {
      for (const status of ['declined', 'confirmed', 'pending']) {
        const refused = expectProblem(
          await answer(who, event.id, guide.id, { status }),
          404,
          'not_found',
        );
        // Body for body a stranger's: nothing about the event shows.
        expect(refused.detail).toBe(strangers.detail);
      }
    }
    expect(await statusesOf(event.id)).toEqual([
      { status: 'confirmed', guide: { id: fired.id } },
      { status: 'pending', guide: { id: moved.id } },
    ]);
    // The profile keeps its link (the seller's to change): by itself it grants nothing.
    const profile = await as(t.app, shop.seller, {
      method: 'GET',
      url: `/api/sellers/${shop.seller.id}/guides/${fired.id}`,
    });
    expect(profile.json().user).toEqual({ id: firedUser.id });
  });
});

describe('a declined assignment', () => {
  it('frees the guide for an overlapping event; taking it back then conflicts', async () => {
    const first = await newEvent();
    await assign(t.app, shop.seller, first.id, { guide: { id: gus.id } });
    // A second event overlapping the first (same start, another experience of the seller).
    const other = await as(t.app, shop.seller, {
      method: 'POST',
      url: '/api/experiences',
      payload: {
        name: 'Canal walk',
        price: 10,
        priceType: 'person',
        currency: 'EUR',
        duration: 60,
        timezone: 'Europe/Paris',
      },
    });
    const overlapping = await createEvent(
      t.app,
      shop.seller,
      other.json().id,
      first.start.slice(0, 16),
    );
    expectProblem(
      await assign(t.app, shop.seller, overlapping.id, { guide: { id: gus.id } }),
      409,
      'guide_conflict',
    );
    await answer(gusUser, first.id, gus.id, { status: 'declined' });
    expect(
      (await assign(t.app, shop.seller, overlapping.id, { guide: { id: gus.id } })).statusCode,
    ).toBe(201);
    const conflict = expectProblem(
      await answer(gusUser, first.id, gus.id, { status: 'confirmed' }),
      409,
      'guide_conflict',
    );
    expect(conflict).toMatchObject({ event: { id: overlapping.id } });
    expect(await statusesOf(first.id)).toEqual([{ status: 'declined', guide: { id: gus.id } }]);
  });

  it('stays listed for the latest version and the guides filter; older versions drop it', async () => {
    const event = await newEvent();
    const keen = await createGuide(t.app, shop.seller, shop.seller.id, { name: 'Keen' });
    await assign(t.app, shop.seller, event.id, { guide: { id: gus.id } });
    await assign(t.app, shop.seller, event.id, { guide: { id: keen.id } });
    await answer(gusUser, event.id, gus.id, { status: 'declined' });
    expect(await statusesOf(event.id)).toEqual([
      { status: 'declined', guide: { id: gus.id } },
      { status: 'pending', guide: { id: keen.id } },
    ]);
    // Before 2018-06-26: bare guide ids, without the guide who declined.
    expect(await statusesOf(event.id, { 'x-api-version': '2018-06-25' })).toEqual([keen.id]);
    // Before 2018-02-26: the guides' user ids (Keen has no user; Gus declined).
    expect(await statusesOf(event.id, { 'x-api-version': '2018-02-01' })).toEqual([]);
    const listed = await as(t.app, shop.seller, {
      method: 'GET',
      url: `/api/events?guides=${gus.id}&id=${event.id}`,
    });
    expect(listed.json().data.map((e: { id: string }) => e.id)).toEqual([event.id]);
  });
});

describe('guides given to POST /api/events', () => {
  it('accepts ids, {id} and {guide: {id}}, and keeps the answers of guides already on it', async () => {
    const event = await newEvent();
    const keen = await createGuide(t.app, shop.seller, shop.seller.id, { name: 'Keen 2' });
    const post = (guides: unknown[]) =>
      as(t.app, shop.seller, {
        method: 'POST',
        url: '/api/events',
        payload: { experience: { id: shop.experienceId }, start: event.start, guides },
      });
    const first = await post([{ id: gus.id }]);
    expect(first.statusCode).toBe(201);
    expect(first.json().guides).toEqual([{ status: 'pending', guide: { id: gus.id } }]);
    await answer(gusUser, event.id, gus.id, { status: 'confirmed' });
    // Sending back the event's own shape (its statuses are the guides' to give: ignored).
    const again = await post([{ status: 'declined', guide: { id: gus.id } }, keen.id]);
    expect(again.json().guides).toEqual([
      { status: 'confirmed', guide: { id: gus.id } },
      { status: 'pending', guide: { id: keen.id } },
    ]);
    for (const guides of [
      [{ id: 'nope' }],
      [{ guide: {} }],
      [{ id: gus.id, guide: { id: gus.id } }],
      [5],
    ]) {
      expectProblem(await post(guides), 400, 'validation_failed');
    }
    expect((await statusesOf(event.id)).length).toBe(2);
  });
});
