/**
 * Proves that GET /api/experiences and GET /api/events return exactly what the reference
 * evaluator `evaluate` says, on random data and random queries over every field and every
 * operator its type allows: experiences visible or not, with wildcard and mixed-case names;
 * events starting in several time zones (their API times carry the local offset), with and
 * without a maximum (`open` is then empty), opened or closed by hand or not (`open` is 0
 * when closed), with guide lists empty or not (`guides`: equals
 * and in mean "contains"). As an admin, as sellers, and (experiences) anonymously.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/db/ids.js';
import { eventList } from '../../src/modules/events/events.list.js';
import { experienceList } from '../../src/modules/experiences/experiences.list.js';
import type { Scope } from '../../src/query/types.js';
import { createAdmin, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import {
  insertEvent,
  insertExperience,
  insertUser,
  type EventFields,
  type ExperienceFields,
} from '../helpers/factories.js';
import {
  SEED,
  assertQueries,
  instantArb,
  nameArb,
  readAll,
  type Obj,
  type Viewer,
} from './arbitraries.js';

const DATA_SETS = 2;
const EXPERIENCE_RUNS = { admin: 200, scoped: 100 };
const EVENT_RUNS = { admin: 250, scoped: 100 };
const TIMEOUT = 300_000;
const WINDOW = { from: '2019-11-01', days: 14 };
const ZONES = [
  'UTC',
  'America/New_York',
  'America/St_Johns',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Pacific/Chatham',
];
const GUIDES = [newId(), newId(), newId(), newId()];

let t: TestApp;
let admin: Account;
let sellerA: Account;
let sellerB: Account;
let sellerIds: string[];

beforeAll(async () => {
  t = await createTestApp();
  admin = await createAdmin(t);
  sellerA = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  sellerB = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  sellerIds = [sellerA.id, sellerB.id, await insertUser(t.database.db)];
}, TIMEOUT);
afterAll(async () => t.close());

const experienceArb = (): fc.Arbitrary<ExperienceFields> =>
  fc.record({
    sellerId: fc.constantFrom(...sellerIds),
    name: nameArb,
    price: fc.oneof(
      fc.constantFrom(0, 25, 49.99),
      fc.integer({ min: 0, max: 50_000 }).map((c) => c / 100),
    ),
    priceType: fc.constantFrom('person' as const, 'outing' as const),
    currency: fc.constantFrom('USD', 'EUR', 'GBP', 'NZD'),
    duration: fc.oneof(fc.constantFrom(60, 90, 120), fc.integer({ min: 1, max: 600 })),
    timezone: fc.constantFrom(...ZONES),
    visible: fc.boolean(),
    createdAt: instantArb(WINDOW.from, WINDOW.days),
  });

function eventsArb(experiences: { id: string; sellerId: string }[]): fc.Arbitrary<EventFields[]> {
  const event = fc
    .record({
      experience: fc.constantFrom(...experiences),
      start: instantArb('2019-11-05', 7),
      durationMinutes: fc.constantFrom(0, 30, 90, 120, 1440),
      max: fc.option(fc.integer({ min: 0, max: 20 }), { nil: null, freq: 4 }),
      reserved: fc.integer({ min: 0, max: 20 }),
      guideIds: fc.uniqueArray(fc.constantFrom(...GUIDES), { maxLength: 3 }),
      manual: fc.constantFrom(null, null, true, false),
      createdAt: instantArb(WINDOW.from, WINDOW.days),
    })
    .map(({ experience, max, reserved, ...e }) => ({
      ...e,
      experienceId: experience.id,
      sellerId: experience.sellerId,
      max,
      reserved: max === null ? reserved : Math.min(reserved, max),
    }));
  // One event per experience and start.
  return fc.uniqueArray(event, {
    minLength: 20,
    maxLength: 60,
    selector: (e) => `${e.experienceId} ${e.start.getTime()}`,
  });
}

/** DESIGN.md's visibility rules, said here independently of the access code. */
const visibleOrOwn = (a: Account | null): Scope => ({
  anyOf: [{ field: 'visible', in: [true] }, ...(a ? [{ field: 'seller', in: [a.id] }] : [])],
});
const own = (a: Account): Scope => ({ anyOf: [{ field: 'seller', in: [a.id] }] });
const sellerOf = (o: Obj) => (o.seller as { id: string }).id;

for (let n = 0; n < DATA_SETS; n++) {
  const seed = SEED + 100 + n;
  describe(`experiences and events data set ${n + 1} (seed ${seed})`, () => {
    let experiences: Obj[] = [];
    let events: Obj[] = [];

    beforeAll(async () => {
      const db = t.database.db;
      await db.deleteFrom('events').execute();
      await db.deleteFrom('experiences').execute();
      const xs = fc.sample(fc.array(experienceArb(), { minLength: 12, maxLength: 30 }), {
        seed,
        numRuns: 1,
      })[0]!;
      const inserted = [];
      for (const x of xs)
        inserted.push({ id: await insertExperience(db, x), sellerId: x.sellerId });
      const es = fc.sample(eventsArb(inserted), { seed, numRuns: 1 })[0]!;
      for (const e of es) await insertEvent(db, e);
      experiences = await readAll(t.app, admin, '/api/experiences');
      events = await readAll(t.app, admin, '/api/events');
      expect([experiences.length, events.length]).toEqual([xs.length, es.length]);
    }, TIMEOUT);

    const experiencesAs = (account: Account | null, scope: Scope): Viewer => ({
      app: t.app,
      path: '/api/experiences',
      spec: experienceList,
      objects: experiences,
      account,
      scope,
      allowed:
        scope === 'all' ? undefined : (o) => o.visible === true || sellerOf(o) === account?.id,
    });
    const eventsAs = (account: Account, scope: Scope): Viewer => ({
      app: t.app,
      path: '/api/events',
      spec: eventList,
      objects: events,
      account,
      scope,
      allowed: scope === 'all' ? undefined : (o) => sellerOf(o) === account.id,
    });

    it(
      'answers experience queries as evaluate does, as an admin',
      async () => {
        const viewers = { admin: experiencesAs(admin, 'all') };
        await assertQueries(viewers, WINDOW, { numRuns: EXPERIENCE_RUNS.admin, seed });
      },
      TIMEOUT,
    );

    it(
      'shows sellers the visible experiences and their own, and anyone the visible ones',
      async () => {
        const viewers = {
          'seller A': experiencesAs(sellerA, visibleOrOwn(sellerA)),
          'seller B': experiencesAs(sellerB, visibleOrOwn(sellerB)),
          anonymous: experiencesAs(null, visibleOrOwn(null)),
        };
        await assertQueries(viewers, WINDOW, { numRuns: EXPERIENCE_RUNS.scoped, seed });
      },
      TIMEOUT,
    );

    it(
      'answers event queries as evaluate does, as an admin',
      async () => {
        const viewers = { admin: eventsAs(admin, 'all') };
        await assertQueries(viewers, WINDOW, { numRuns: EVENT_RUNS.admin, seed });
      },
      TIMEOUT,
    );

    it(
      'shows sellers only their own events, as evaluate does with their scope',
      async () => {
        const viewers = {
          'seller A': eventsAs(sellerA, own(sellerA)),
          'seller B': eventsAs(sellerB, own(sellerB)),
        };
        await assertQueries(viewers, WINDOW, { numRuns: EVENT_RUNS.scoped, seed });
      },
      TIMEOUT,
    );
  });
}
