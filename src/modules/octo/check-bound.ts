/**
 * The bound on one availability check's answer (docs/octo.md, "Availability"). A check
 * answers each departure of its range as a full availability object, about 290 bytes, and
 * with octo/pricing each price it carries (a unit's, the booking's) about 130 bytes more:
 * a year of a product departing every quarter of an hour with 20 units was 106 MB of JSON
 * and 12 s of CPU, enough to take a 128 MB heap down. The range's 366 days and the
 * 100,000 departures of events/departure-bound.ts bound the work of reading, not the answer.
 *
 * So one check answers at most MAX_CHECK_DEPARTURES departures, each price counting half a
 * departure: about 1.7 MB at most whatever the mix (6,000 departures without prices, 545
 * with 20 unit prices each). The schedules' departures are counted before anything is read,
 * then with the events opened by hand, also before any is read, past twice the bound (one
 * count that stops one past the room the schedules leave: events/departure-bound.ts; it runs
 * high, so the exact count of what is read decides nearer the bound): staff may open tens
 * of thousands, and reading them only to refuse the check cost what the bound saves. The
 * calendar, one object per day, keeps its year.
 */
import {
  addDays,
  dayNumber,
  departuresOn,
  departureTimesOf,
  type ScheduleInput,
} from '../schedules/index.js';
import { fail } from './octo.errors.js';

/**
 * The most departures one check answers without prices: 62 days of departures every
 * quarter of an hour (5,952), as the API's own availability answers at most 62 days.
 */
export const MAX_CHECK_DEPARTURES = 6_000;

/** How many departures carrying `prices` prices each one check answers. */
export const departuresFitting = (prices: number): number =>
  Math.floor((2 * MAX_CHECK_DEPARTURES) / (2 + prices));

/**
 * The departures the schedules give from `start` to `end` (local dates, both included);
 * within `fitting`, possibly fewer than that upper bound says without counting each day.
 * Pure and cheap: a year is 366 looks at the schedules, no time zone rules.
 */
export function scheduledBetween(
  schedules: readonly ScheduleInput[],
  start: string,
  end: string,
  fitting: number,
): number {
  const days = dayNumber(end) - dayNumber(start) + 1;
  const most = days * departureTimesOf(schedules);
  if (most <= fitting) return most;
  let count = 0;
  for (let i = 0; i < days; i++) count += departuresOn(schedules, addDays(start, i)).length;
  return count;
}

/** Refuses a check of `count` departures carrying `prices` prices each past the bound. */
export function checkAnswerSize(count: number, prices: number): void {
  if (count > departuresFitting(prices)) refuseCheck(String(count), prices);
}

/**
 * Refuses a check of departures carrying `prices` prices each, `count` of them in words (a
 * number, or the events module's "up to 480 times by their schedules and more than 65 more").
 */
export function refuseCheck(count: string, prices: number): never {
  const fitting = departuresFitting(prices);
  const bound =
    prices === 0
      ? `at most ${fitting} departures`
      : `at most ${fitting} of its departures with octo/pricing (${MAX_CHECK_DEPARTURES}, each of the ${prices} prices of a departure counting half a departure)`;
  return fail(
    'BAD_REQUEST',
    `this product departs ${count} times in these dates, and one availability check answers ${bound}: ask for fewer dates`,
  );
}
