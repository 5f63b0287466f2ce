/**
 * What one experience's or guide's schedules may list together (MAX_SCHEDULE_DATES,
 * MAX_SCHEDULE_TIMES): fifty schedules at their own bounds made one experience 280 KB of
 * JSON and a public list page of a hundred 28 MB. A whole body, one schedule added or
 * replaced: refused with 400 naming `schedules`, nothing changed; what was stored before the
 * bound can still be edited down or left as it is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_SCHEDULE_DATES,
  MAX_SCHEDULE_TIMES,
} from '../../src/modules/schedules/schedule.rules.js';
import { as, createTestApp, expectProblem, type TestApp } from '../helpers/app.js';
import { openShop, type Shop } from '../helpers/booking.js';
import { createGuide, guideRequest } from '../helpers/guides.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** `count` consecutive dates from 2031-01-01. */
const datesFrom = (count: number, first = Date.UTC(2031, 0, 1)) =>
  Array.from({ length: count }, (_, i) =>
    new Date(first + i * 86_400_000).toISOString().slice(0, 10),
  );
/** A closed custom schedule on `count` dates (no departure times to count). */
const closedOn = (count: number, first?: number) => ({
  type: 'unavailable',
  repeat: 'custom',
  dates: datesFrom(count, first),
});
/** An unavailable weekly schedule closing `count` departure times. */
const closingTimes = (count: number) => ({
  type: 'unavailable',
  repeat: 'weekly',
  days: [1],
  times: Array.from({ length: count }, (_, i) => Math.floor(i / 4) * 100 + (i % 4) * 15),
});
const OPEN = { type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: [900] };

const experienceOf = async (shop: Shop) =>
  (
    await as(t.app, shop.seller, { method: 'GET', url: `/api/experiences/${shop.experienceId}` })
  ).json<{ price: number; schedules: { id: string; dates?: string[] }[] }>();

const refusedOnSchedules = (response: Awaited<ReturnType<typeof as>>, detail: RegExp) => {
  const problem = expectProblem(response, 400, 'validation_failed');
  expect(problem.errors).toEqual([expect.objectContaining({ name: 'schedules' })]);
  expect(problem.errors?.[0]?.detail).toMatch(detail);
};

describe('an experience’s schedules, together', () => {
  it('takes a body at the bounds and refuses one date or time past them, changing nothing', async () => {
    // Three schedules of 366, 366 and 268 dates: exactly MAX_SCHEDULE_DATES.
    const atBound = [
      OPEN,
      closedOn(366),
      closedOn(366, Date.UTC(2032, 0, 1)),
      closedOn(MAX_SCHEDULE_DATES - 732, Date.UTC(2033, 0, 1)),
      closingTimes(96),
    ];
    const shop = await openShop(t.app, { schedules: atBound });
    const stored = await experienceOf(shop);
    expect(stored.schedules.flatMap((s) => s.dates ?? [])).toHaveLength(MAX_SCHEDULE_DATES);

    const oneMoreDate = await as(t.app, shop.seller, {
      method: 'POST',
      url: `/api/experiences/${shop.experienceId}/schedules`,
      payload: closedOn(1, Date.UTC(2034, 0, 1)),
    });
    refusedOnSchedules(oneMoreDate, new RegExp(`at most ${MAX_SCHEDULE_DATES} dates`));
    expect(await experienceOf(shop)).toEqual(stored);

    const wholeBody = await as(t.app, shop.seller, {
      method: 'POST',
      url: '/api/experiences',
      payload: {
        name: 'Over',
        price: 10,
        priceType: 'person',
        currency: 'EUR',
        duration: 60,
        schedules: [...atBound, closedOn(1, Date.UTC(2034, 0, 1))],
      },
    });
    refusedOnSchedules(wholeBody, /these list 1001\)/);

    // Times: 96 a schedule, so six schedules of them go past 500.
    const manyTimes = await as(t.app, shop.seller, {
      method: 'PUT',
      url: `/api/experiences/${shop.experienceId}`,
      payload: { schedules: [OPEN, ...Array.from({ length: 6 }, () => closingTimes(96))] },
    });
    refusedOnSchedules(manyTimes, new RegExp(`at most ${MAX_SCHEDULE_TIMES} times`));
    expect(await experienceOf(shop)).toEqual(stored);
  });

  it('keeps an experience stored past the bounds editable: its price, and its schedules down', async () => {
    const shop = await openShop(t.app);
    // Stored before the bound existed: 1,464 dates in four schedules.
    const past = [OPEN, ...[0, 1, 2, 3].map((y) => closedOn(366, Date.UTC(2031 + y, 0, 1)))];
    await t.database.db
      .updateTable('experiences')
      .set({
        schedules: JSON.stringify(past.map((s, i) => ({ ...s, id: `${'0'.repeat(23)}${i}` }))),
      })
      .where('id', '=', shop.experienceId)
      .execute();
    const repriced = await as(t.app, shop.seller, {
      method: 'PUT',
      url: `/api/experiences/${shop.experienceId}`,
      payload: { price: 30 },
    });
    expect(repriced.statusCode, repriced.body).toBe(200);
    const removed = await as(t.app, shop.seller, {
      method: 'DELETE',
      url: `/api/experiences/${shop.experienceId}/schedules/${'0'.repeat(23)}4`,
    });
    expect(removed.statusCode, removed.body).toBe(204);
    // Still past the bound (1,098 dates): growing it again is refused.
    const grown = await as(t.app, shop.seller, {
      method: 'POST',
      url: `/api/experiences/${shop.experienceId}/schedules`,
      payload: closedOn(1, Date.UTC(2040, 0, 1)),
    });
    refusedOnSchedules(grown, /these list 1099\)/);
    const after = await experienceOf(shop);
    expect(after.price).toBe(30);
    expect(after.schedules.flatMap((s) => s.dates ?? [])).toHaveLength(1098);
  });
});

describe('a guide’s schedules, together', () => {
  it('refuses a body or an added schedule past the bounds, changing nothing', async () => {
    const shop = await openShop(t.app);
    const seller = shop.seller;
    const ranges = (count: number) => ({
      type: 'available',
      repeat: 'weekly',
      days: [1],
      timeRanges: Array.from({ length: count }, (_, i) => ({
        startTime: i * 100,
        endTime: i * 100 + 30,
      })),
    });
    const over = await guideRequest(t.app, seller, 'POST', `/${seller.id}/guides`, {
      name: 'Too busy',
      schedules: Array.from({ length: 21 }, () => ranges(24)),
    });
    refusedOnSchedules(over, new RegExp(`at most ${MAX_SCHEDULE_TIMES} times and time ranges`));

    const guide = await createGuide(t.app, seller, seller.id, {
      schedules: [
        closedOn(366),
        closedOn(366, Date.UTC(2032, 0, 1)),
        closedOn(268, Date.UTC(2033, 0, 1)),
      ],
    });
    const path = `/${seller.id}/guides/${guide.id}`;
    const added = await guideRequest(
      t.app,
      seller,
      'POST',
      `${path}/schedules`,
      closedOn(1, Date.UTC(2034, 0, 1)),
    );
    refusedOnSchedules(added, new RegExp(`at most ${MAX_SCHEDULE_DATES} dates`));
    const replaced = await guideRequest(
      t.app,
      seller,
      'PUT',
      `${path}/schedules/${guide.schedules[2]!.id}`,
      closedOn(269, Date.UTC(2033, 0, 1)),
    );
    refusedOnSchedules(replaced, /these list 1001\)/);
    const read = (await guideRequest(t.app, seller, 'GET', path)).json();
    expect(read.schedules).toEqual(guide.schedules);
  });
});
