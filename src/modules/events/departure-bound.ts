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
 * How far past MAX_AVAILABILITY_DEPARTURES the departures of these experiences between the
 * local dates go, in words, or undefined within it. Events opened by hand are counted (in
 * the range around the dates, so a few beside it may count too), not only the schedules'
 * times: staff may open any number, one a minute or more, and 89,280 of them on one
 * experience took 6.5 s of the event loop. The count stops one past what is left.
 */
export async function departuresPastBound(
  db: Executor,
  experiences: readonly { id: string; schedules: readonly ScheduleInput[] }[],
  start: string,
  end: string,
): Promise<string | undefined> {
  const days = daysBetween(start, end) + 1;
  const scheduled = experiences.reduce(
    (sum, experience) => sum + days * departureTimesOf(experience.schedules),
    0,
  );
  if (scheduled > MAX_AVAILABILITY_DEPARTURES) return `up to ${scheduled}`;
  if (experiences.length === 0) return undefined;
  const { from, to } = rangeAround(start, end);
  const left = MAX_AVAILABILITY_DEPARTURES - scheduled;
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
