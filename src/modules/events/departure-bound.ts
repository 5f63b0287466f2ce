/**
 * The bound on the departures one request may compute: an availability request (the API's,
 * one experience or many) or OCTo's availability and calendar. Each departure is worked
 * out, looked up and answered on the event loop, so a request past the bound is refused
 * before any is computed or any event read.
 */
import type { Executor } from '../../db/unit-of-work.js';
import type { ScheduleInput } from '../schedules/index.js';
import { departureTimesOf } from '../schedules/index.js';
import { daysBetween, rangeAround } from './availability.js';
import { departuresRepository } from './departures.repository.js';

/**
 * The most departures one request may compute (experiences x days x their departure times
 * a day, plus the events opened by hand in the range): 50 experiences of hourly departures
 * over 62 days are 74,400.
 */
export const MAX_AVAILABILITY_DEPARTURES = 100_000;

/**
 * A bound of a caller's own, tighter than the API's (OCTo's availability check, which bounds
 * the size of its answer): at most `most` departures, `scheduled` of them the schedules' in
 * the range as the caller counted them (day by day: the API's days x times a day would
 * refuse a range whose schedules run on a few of its days).
 */
export interface DepartureBound {
  most: number;
  scheduled: number;
}

/**
 * How far past the bound (MAX_AVAILABILITY_DEPARTURES, or `bound`) the departures of these
 * experiences between the local dates go, in words, or undefined within it. Events opened by
 * hand are counted (in the range around the dates, so a few beside it may count too, and one
 * opened at a scheduled time counts twice), not only the schedules' times: staff may open any
 * number, one a minute or more, and 89,280 of them on one experience took 6.5 s of the event
 * loop. The count stops one past what is left, so a range past the bound costs one count of
 * at most that many index entries, never a read of the events.
 */
export async function departuresPastBound(
  db: Executor,
  experiences: readonly { id: string; schedules: readonly ScheduleInput[] }[],
  start: string,
  end: string,
  bound?: DepartureBound,
): Promise<string | undefined> {
  const days = daysBetween(start, end) + 1;
  const most = bound?.most ?? MAX_AVAILABILITY_DEPARTURES;
  const scheduled =
    bound?.scheduled ??
    experiences.reduce((sum, experience) => sum + days * departureTimesOf(experience.schedules), 0);
  if (scheduled > most) return `up to ${scheduled}`;
  if (experiences.length === 0) return undefined;
  const { from, to } = rangeAround(start, end);
  const left = most - scheduled;
  const byHand = await departuresRepository(db).openedByHandBetween(
    experiences.map((experience) => experience.id),
    from,
    to,
    left,
  );
  return byHand > left
    ? `up to ${scheduled} times by their schedules and more than ${left} more`
    : undefined;
}
