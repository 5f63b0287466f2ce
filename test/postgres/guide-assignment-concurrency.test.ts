/**
 * Guide assignment under concurrency on a real PostgreSQL server (DESIGN.md section 6,
 * Assigning guides): requests fired at the real app through HTTP (`app.inject`) at once, on
 * a pool of 10 server connections, so they really race in the database.
 *
 * - One guide, two events at the same time, 48 parallel attempts split between them: the
 *   guide ends up on exactly one; every attempt on that event answers 201 (the first, then
 *   idempotent replays), every attempt on the other 409 guide_conflict naming the winner.
 * - Many different guides assigned to one event at once all land: no update is lost.
 * - The same guide assigned to one event many times at once is listed once.
 * - Guides given to POST /api/events race with POST /api/events/{id}/guides under the same
 *   rule, without a 5xx.
 * - Deleting a guide while it is being assigned leaves it on no future event, without a 5xx.
 * - Callers before v2018-02-26 assigning a delegate's user id many times at once get one
 *   guide profile for it, announced once (guide.create).
 * - Deleting and changing one guide at once: one DELETE answers 204 (one guide.delete), and
 *   no change is written to the guide once it is deleted.
 * - A booking's auto-assignment locks only the guides it assigns: a guide it looked at and
 *   refused is free for another booking's unrelated departure meanwhile.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import {
  ALWAYS,
  assign,
  createEvent,
  createGuide,
  delegate,
  type Guide,
  guideIdsOf,
} from '../helpers/guides.js';
import {
  book,
  createExperience,
  item,
  observe,
  upsertEvent,
  serverErrors,
  tally,
  within,
  type Observer,
} from './booking-helpers.js';

const TEST_MS = 90_000;
const ATTEMPTS = 48;

let t: TestApp;
let observer: Observer;
let seller: Account;
let kayak: string;
let bikes: string;

beforeAll(async () => {
  t = await createTestApp();
  observer = await observe(t.database.db);
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  kayak = await createExperience(t.app, seller, { name: 'Kayak' });
  bikes = await createExperience(t.app, seller, { name: 'Bikes' });
});

afterAll(async () => {
  await observer?.close();
  await Promise.race([t?.close(), new Promise((resolve) => setTimeout(resolve, 10_000))]);
});

let logMark = 0;
beforeEach(() => {
  logMark = t.logs.length;
});

afterEach(async () => {
  // No request of the test may have logged an error (a 5xx, a deadlock that escaped).
  const failures = t.logs
    .slice(logMark)
    .filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
  expect(failures).toEqual([]);
});

const guidesOf = async (eventId: string): Promise<string[]> =>
  (
    await observer.query<{ guide_ids: string[] }>('select guide_ids from events where id = $1', [
      eventId,
    ])
  )[0]!.guide_ids;

/** Two events of different experiences starting at the same instant (both 120 minutes). */
async function twoEventsAt(start: string) {
  return [
    await createEvent(t.app, seller, kayak, start),
    await createEvent(t.app, seller, bikes, start),
  ] as const;
}

/** Fires every request at once and waits for all the answers. */
const all = (label: string, requests: (() => Promise<LightMyRequestResponse>)[]) =>
  within(observer, label, Promise.all(requests.map((request) => request())), 60_000);

describe('one guide, two events at the same time', () => {
  it(
    'ends up on exactly one event, whatever the interleaving',
    async () => {
      for (let round = 0; round < 5; round++) {
        const guide = await createGuide(t.app, seller, seller.id, {
          name: `Racer ${round}`,
          schedules: [ALWAYS],
        });
        const [a, b] = await twoEventsAt(`2030-06-0${round + 1}T09:00:00Z`);
        const targets = Array.from({ length: ATTEMPTS }, (_, i) => (i % 2 === 0 ? a : b));
        const responses = await all(
          `round ${round}`,
          targets.map(
            (target, i) => () =>
              assign(
                t.app,
                seller,
                target.id,
                // Every body shape takes part.
                [{ guide: { id: guide.id } }, { id: guide.id }, { id: { id: guide.id } }][i % 3]!,
              ),
          ),
        );
        expect(serverErrors(responses)).toEqual([]);

        const onA = (await guidesOf(a.id)).includes(guide.id);
        const onB = (await guidesOf(b.id)).includes(guide.id);
        expect([onA, onB], `round ${round}: ${JSON.stringify(tally(responses))}`).toSatisfy(
          ([x, y]: boolean[]) => x !== y,
        );
        const winner = onA ? a : b;
        const loser = onA ? b : a;
        expect(await guidesOf(winner.id)).toEqual([guide.id]);
        expect(await guidesOf(loser.id)).toEqual([]);

        targets.forEach((target, i) => {
          const response = responses[i]!;
          if (target.id === winner.id) {
            expect(response.statusCode, response.body).toBe(201);
            expect(response.json()).toMatchObject({ id: winner.id });
            expect(guideIdsOf(response.json())).toEqual([guide.id]);
          } else {
            expect(response.statusCode, response.body).toBe(409);
            expect(response.json()).toMatchObject({
              code: 'guide_conflict',
              guide: { id: guide.id },
              event: { id: winner.id },
            });
          }
        });
        expect(tally(responses)).toEqual({
          '201': ATTEMPTS / 2,
          '409 guide_conflict': ATTEMPTS / 2,
        });
      }
    },
    TEST_MS,
  );

  it(
    'lets forceConfirm put it on both, and only those attempts',
    async () => {
      const guide = await createGuide(t.app, seller, seller.id, { name: 'Forced' });
      const [a, b] = await twoEventsAt('2030-06-10T09:00:00Z');
      const responses = await all(
        'forced',
        Array.from(
          { length: ATTEMPTS },
          (_, i) => () =>
            assign(t.app, seller, (i % 2 === 0 ? a : b).id, {
              guide: { id: guide.id, forceConfirm: true },
            }),
        ),
      );
      expect(serverErrors(responses)).toEqual([]);
      expect(tally(responses)).toEqual({ '201': ATTEMPTS });
      expect(await guidesOf(a.id)).toEqual([guide.id]);
      expect(await guidesOf(b.id)).toEqual([guide.id]);
    },
    TEST_MS,
  );
});

describe('one event, many assignments', () => {
  it(
    'keeps every one of many different guides assigned at once',
    async () => {
      const guides: Guide[] = [];
      for (let i = 0; i < 40; i++) {
        guides.push(await createGuide(t.app, seller, seller.id, { name: `Crew ${i}` }));
      }
      const target = await createEvent(t.app, seller, kayak, '2030-06-11T09:00:00Z');
      const responses = await all(
        'crew',
        guides.map((guide) => () => assign(t.app, seller, target.id, { guide: { id: guide.id } })),
      );
      expect(serverErrors(responses)).toEqual([]);
      expect(tally(responses)).toEqual({ '201': guides.length });
      const onEvent = await guidesOf(target.id);
      expect(onEvent).toHaveLength(guides.length);
      expect([...onEvent].sort()).toEqual(guides.map((g) => g.id).sort());
      const read = await as(t.app, seller, { method: 'GET', url: `/api/events/${target.id}` });
      expect(guideIdsOf(read.json()).sort()).toEqual(guides.map((g) => g.id).sort());
    },
    TEST_MS,
  );

  it(
    'lists a guide once however many times it is assigned at once',
    async () => {
      const guide = await createGuide(t.app, seller, seller.id, { name: 'Repeated' });
      const target = await createEvent(t.app, seller, kayak, '2030-06-12T09:00:00Z');
      const responses = await all(
        'repeated',
        Array.from(
          { length: ATTEMPTS },
          () => () => assign(t.app, seller, target.id, { guide: { id: guide.id } }),
        ),
      );
      expect(serverErrors(responses)).toEqual([]);
      expect(tally(responses)).toEqual({ '201': ATTEMPTS });
      expect(await guidesOf(target.id)).toEqual([guide.id]);
    },
    TEST_MS,
  );
});

describe('POST /api/events with guides, racing assignments', () => {
  it(
    'obeys the same rule without a 5xx: the guide ends up on one of two simultaneous events',
    async () => {
      for (let round = 0; round < 3; round++) {
        const guide = await createGuide(t.app, seller, seller.id, { name: `Mixed ${round}` });
        const start = `2030-06-2${round}T09:00:00Z`;
        const [a, b] = await twoEventsAt(start);
        const requests = Array.from({ length: ATTEMPTS }, (_, i) => {
          const target = i % 2 === 0 ? a : b;
          const experience = i % 2 === 0 ? kayak : bikes;
          return i % 4 < 2
            ? () => assign(t.app, seller, target.id, { guide: { id: guide.id } })
            : () =>
                as(t.app, seller, {
                  method: 'POST',
                  url: '/api/events',
                  payload: { experience: { id: experience }, start, guides: [guide.id] },
                });
        });
        const responses = await all(`mixed round ${round}`, requests);
        expect(serverErrors(responses), JSON.stringify(tally(responses))).toEqual([]);
        const onA = (await guidesOf(a.id)).includes(guide.id);
        const onB = (await guidesOf(b.id)).includes(guide.id);
        expect([onA, onB], JSON.stringify(tally(responses))).toSatisfy(
          ([x, y]: boolean[]) => x !== y,
        );
        const winner = onA ? a : b;
        for (const [i, response] of responses.entries()) {
          const onWinner = (i % 2 === 0 ? a : b).id === winner.id;
          expect(response.statusCode, response.body).toBe(onWinner ? 201 : 409);
          if (!onWinner) {
            expect(response.json()).toMatchObject({
              code: 'guide_conflict',
              event: { id: winner.id },
            });
          }
        }
      }
    },
    TEST_MS,
  );
});

describe('deleting a guide while it is being assigned', () => {
  it(
    'leaves it on no future event, and answers every request without a 5xx',
    async () => {
      for (let round = 0; round < 3; round++) {
        const guide = await createGuide(t.app, seller, seller.id, { name: `Leaving ${round}` });
        const targets: { id: string; start: string }[] = [];
        for (let day = 1; day <= 4; day++) {
          const start = `2030-07-${String(round * 4 + day).padStart(2, '0')}T09:00:00Z`;
          const created = await createEvent(t.app, seller, kayak, start);
          await assign(t.app, seller, created.id, { guide: { id: guide.id } });
          targets.push({ id: created.id, start });
        }
        const requests = Array.from({ length: ATTEMPTS }, (_, i) => {
          const target = targets[i % targets.length]!;
          if (i === ATTEMPTS / 2) {
            return () =>
              as(t.app, seller, {
                method: 'DELETE',
                url: `/api/sellers/${seller.id}/guides/${guide.id}`,
              });
          }
          return i % 2 === 0
            ? () => assign(t.app, seller, target.id, { guide: { id: guide.id } })
            : () =>
                as(t.app, seller, {
                  method: 'POST',
                  url: '/api/events',
                  payload: { experience: { id: kayak }, start: target.start, guides: [guide.id] },
                });
        });
        const responses = await all(`deletion round ${round}`, requests);
        expect(serverErrors(responses), JSON.stringify(tally(responses))).toEqual([]);
        expect(responses[ATTEMPTS / 2]!.statusCode).toBe(204);
        for (const response of responses) {
          expect([201, 204, 404], response.body).toContain(response.statusCode);
        }
        for (const target of targets) expect(await guidesOf(target.id)).toEqual([]);
      }
    },
    TEST_MS,
  );
});

describe('user ids before v2018-02-26', () => {
  it(
    'creates one guide profile for a delegate assigned many times at once',
    async () => {
      const user = await delegate(t.app, seller, ['ROLE_GUIDE'], 'First Timer');
      const [a, b] = await twoEventsAt('2030-06-25T09:00:00Z');
      const responses = await all(
        'old version',
        Array.from(
          { length: ATTEMPTS },
          (_, i) => () =>
            assign(
              t.app,
              seller,
              (i % 2 === 0 ? a : b).id,
              { id: user.id },
              {
                'x-api-version': '2018-02-01',
              },
            ),
        ),
      );
      expect(serverErrors(responses)).toEqual([]);
      const profiles = await observer.query<{ id: string }>(
        'select id from guides where seller_id = $1 and user_id = $2',
        [seller.id, user.id],
      );
      expect(profiles).toHaveLength(1);
      const guideId = profiles[0]!.id;
      // Made in one of the assignments' transactions, and announced once.
      const announced = await observer.query<{ name: string }>(
        "select name from domain_events where name = 'guide.create' and object->>'id' = $1",
        [guideId],
      );
      expect(announced).toHaveLength(1);
      const onA = (await guidesOf(a.id)).includes(guideId);
      const onB = (await guidesOf(b.id)).includes(guideId);
      expect([onA, onB], JSON.stringify(tally(responses))).toSatisfy(
        ([x, y]: boolean[]) => x !== y,
      );
      const winner = onA ? a : b;
      for (const [i, response] of responses.entries()) {
        const onWinner = (i % 2 === 0 ? a : b).id === winner.id;
        expect(response.statusCode, response.body).toBe(onWinner ? 201 : 409);
        // The old shape: the guide is its user.
        if (onWinner) expect(response.json().guides).toEqual([user.id]);
      }
    },
    TEST_MS,
  );
});

describe('deleting and changing one guide at once', () => {
  it(
    'deletes it once (one 204, one guide.delete); no change lands on the deleted guide',
    async () => {
      for (let round = 0; round < 3; round++) {
        const guide = await createGuide(t.app, seller, seller.id, { name: `Twice ${round}` });
        const url = `/api/sellers/${seller.id}/guides/${guide.id}`;
        const requests = Array.from({ length: 16 }, (_, i) =>
          i % 2 === 0
            ? () => as(t.app, seller, { method: 'DELETE', url })
            : () => as(t.app, seller, { method: 'PUT', url, payload: { name: `Renamed ${i}` } }),
        );
        const responses = await all(`delete/change round ${round}`, requests);
        expect(serverErrors(responses)).toEqual([]);
        const deletes = responses.filter((_, i) => i % 2 === 0).map((r) => r.statusCode);
        expect(
          deletes.filter((code) => code === 204),
          JSON.stringify(deletes),
        ).toHaveLength(1);
        const announced = await observer.query<{ name: string; name_after: string }>(
          `select name, object ->> 'name' as name_after from domain_events
           where object ->> 'id' = $1 and name in ('guide.update', 'guide.delete')`,
          [guide.id],
        );
        expect(announced.filter((e) => e.name === 'guide.delete')).toHaveLength(1);
        // Every change answered 200 was made before the delete: the deleted guide is as the
        // last of them left it (or as created), and the delete announced that state.
        const row = (
          await observer.query<{ name: string; deleted_at: Date | null }>(
            'select name, deleted_at from guides where id = $1',
            [guide.id],
          )
        )[0]!;
        expect(row.deleted_at).not.toBeNull();
        const deleted = announced.find((e) => e.name === 'guide.delete')!;
        expect(deleted.name_after).toBe(row.name);
        const changed = responses.filter((r, i) => i % 2 === 1 && r.statusCode === 200).length;
        expect(announced.filter((e) => e.name === 'guide.update')).toHaveLength(changed);
      }
    },
    TEST_MS,
  );
});

describe('auto-assignment during a booking', () => {
  it(
    'leaves the guides it refused free for another booking while it runs',
    async () => {
      // A seller of its own: the guides of the tests above would be candidates first.
      const seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
      const staffed = await createExperience(t.app, seller, { name: 'Staffed' });
      const preferences = await as(t.app, seller, {
        method: 'POST',
        url: `/api/experiences/${staffed}/guide`,
        payload: { autoAssign: true, required: 1 },
      });
      expect(preferences.statusCode, preferences.body).toBe(201);
      // Afternoons only: never the 09:00 departures, always the 15:00 ones.
      const afternoons = await createGuide(t.app, seller, seller.id, {
        name: 'Afternoons',
        schedules: [{ ...ALWAYS, timeRanges: [{ startTime: 1400, endTime: 1800 }] }],
      });
      const held = await upsertEvent(t.app, seller, staffed, 100, '2031-09-03', 900);
      const [first, second] = [await signUp(t.app), await signUp(t.app)];

      // Booking A makes the 09:00 departure of 09-01 (its auto-assignment looks at the guide
      // and refuses it), then waits for 09-03's event, which another session holds.
      const holder = await observe(t.database.db);
      try {
        await holder.query('begin');
        await holder.query('select id from events where id = $1 for update', [held.id]);
        const a = book(t.app, first, [
          item(staffed, '2031-09-01', 900),
          item(staffed, '2031-09-03', 900),
        ]);
        await within(
          observer,
          'booking A waiting on the held event',
          (async () => {
            for (;;) {
              const waiting = await observer.query<{ n: number }>(
                `select count(*)::int as n from pg_stat_activity
                 where datname = current_database() and wait_event_type = 'Lock'`,
              );
              if (waiting[0]!.n > 0) return;
              await new Promise((resolve) => setTimeout(resolve, 20));
            }
          })(),
          20_000,
        );
        // Booking B, meanwhile, makes an unrelated afternoon departure: the guide is free.
        const b = await within(
          observer,
          'booking B',
          book(t.app, second, [item(staffed, '2031-09-02', 1500)]),
          20_000,
        );
        expect(b.statusCode, b.body).toBe(201);
        expect(await guidesOf(b.json().items[0].event.id)).toEqual([afternoons.id]);
        await holder.query('commit');
        const booked = await within(observer, 'booking A', a, 20_000);
        expect(booked.statusCode, booked.body).toBe(201);
        expect(await guidesOf(booked.json().items[0].event.id)).toEqual([]);
      } finally {
        await holder.query('rollback').catch(() => undefined);
        await holder.close();
      }
    },
    TEST_MS,
  );
});
