/**
 * Departures with their seats, over a range of local dates or at given starts: what OCTo's
 * availability and calendar show (and any face that asks "which departures, how many
 * seats"). A departure is a scheduled start of the experience, or an event opened by hand;
 * its seats are its event's (max, reserved, closed by hand), or, before it has an event,
 * the experience's `outingMax` with none taken. Pure, given the events found.
 */
import {
  dayNumber,
  departuresOn,
  hhmmToMinutes,
  instantToLocal,
  isScheduled,
  localToInstant,
} from '../schedules/index.js';
import type { ScheduleInput } from '../schedules/index.js';
import { datesBetween, openedByHandByDate, type BookedEvent } from './availability.js';

export interface DepartureSeats {
  start: Date;
  /** Seats in all: the event's max, or `outingMax` before it has one; null: unlimited. */
  capacity: number | null;
  /** Seats taken (0 before the departure has an event). */
  reserved: number;
  /** Closed by hand (the event's `manual` is false). */
  closed: boolean;
  /**
   * Guests the resources it shares still have room for (docs/resources.md), when its
   * experience uses any; the seats a booking can take are the fewer of this and its own.
   */
  resourceRoom?: number;
}

export interface DepartureSource {
  schedules: readonly ScheduleInput[];
  timezone: string;
  outingMax: number | null;
}

const seatsOf = (
  experience: DepartureSource,
  start: Date,
  event: BookedEvent | undefined,
): DepartureSeats =>
  event
    ? { start, capacity: event.max, reserved: event.reserved, closed: event.manual === false }
    : { start, capacity: experience.outingMax, reserved: 0, closed: false };

const DAY_MS = 86_400_000;
const WATCH_MS = 3 * 3_600_000;
const wallMinutes = ({ date, hhmm }: { date: string; hhmm: number }) =>
  dayNumber(date) * 1440 + hhmmToMinutes(hhmm);

/**
 * `localToInstant`, fast for a run of days: the same time `days` later is the earlier
 * instant plus that many days when the wall clock says so and no clock change follows
 * within three hours (then the time is not the first of one lived twice, which
 * `localToInstant` would not pick). Otherwise, and for a run's first day, `localToInstant`
 * (a time zone's rules through Luxon, about twenty times dearer: a year of daily departures
 * spent 20 ms on it).
 */
function instantAfter(
  date: string,
  hhmm: number,
  zone: string,
  earlier: { date: string; at: Date } | undefined,
): Date | undefined {
  if (earlier) {
    const at = new Date(
      earlier.at.getTime() + (dayNumber(date) - dayNumber(earlier.date)) * DAY_MS,
    );
    const local = instantToLocal(at, zone);
    if (
      local.date === date &&
      local.hhmm === hhmm &&
      wallMinutes(instantToLocal(new Date(at.getTime() + WATCH_MS), zone)) - wallMinutes(local) ===
        WATCH_MS / 60_000
    )
      return at;
  }
  return localToInstant(date, hhmm, zone);
}

/** Every departure whose local date is in `start`..`end`, in time order. */
export function departuresIn(
  experience: DepartureSource,
  start: string,
  end: string,
  events: readonly BookedEvent[],
): DepartureSeats[] {
  const byStart = new Map(events.map((e) => [e.start.getTime(), e]));
  const openedByHand = openedByHandByDate(events, experience.timezone);
  // Each time of day's last departure: the next one is found from it (instantAfter).
  const last = new Map<number, { date: string; at: Date }>();
  return datesBetween(start, end).flatMap((date) => {
    const times = new Set([
      ...departuresOn(experience.schedules, date),
      ...(openedByHand.get(date) ?? []),
    ]);
    return [...times]
      .sort((a, b) => a - b)
      .flatMap((time) => {
        const instant = instantAfter(date, time, experience.timezone, last.get(time));
        // A time a daylight-saving change skips has no departure.
        if (!instant) return [];
        last.set(time, { date, at: instant });
        return [seatsOf(experience, instant, byStart.get(instant.getTime()))];
      });
  });
}

/**
 * The departures at these starts that exist (scheduled, or opened by hand), in the order
 * asked; a start with neither is left out.
 */
export function departuresAtStarts(
  experience: DepartureSource,
  starts: readonly Date[],
  events: readonly BookedEvent[],
): DepartureSeats[] {
  const byStart = new Map(events.map((e) => [e.start.getTime(), e]));
  return starts.flatMap((start) => {
    const event = byStart.get(start.getTime());
    const { date, hhmm } = instantToLocal(start, experience.timezone);
    const offered = event?.manual === true || isScheduled(experience.schedules, date, hhmm);
    return offered ? [seatsOf(experience, start, event)] : [];
  });
}
