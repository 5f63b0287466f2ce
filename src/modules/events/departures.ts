/**
 * Departures with their seats, over a range of local dates or at given starts: what OCTo's
 * availability and calendar show (and any face that asks "which departures, how many
 * seats"). A departure is a scheduled start of the experience, or an event opened by hand;
 * its seats are its event's (max, reserved, closed by hand), or, before it has an event,
 * the experience's `outingMax` with none taken. Pure, given the events found.
 */
import { departuresOn, instantToLocal, isScheduled, localToInstant } from '../schedules/index.js';
import type { ScheduleInput } from '../schedules/index.js';
import { datesBetween, type BookedEvent } from './availability.js';

export interface DepartureSeats {
  start: Date;
  /** Seats in all: the event's max, or `outingMax` before it has one; null: unlimited. */
  capacity: number | null;
  /** Seats taken (0 before the departure has an event). */
  reserved: number;
  /** Closed by hand (the event's `manual` is false). */
  closed: boolean;
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

/** Every departure whose local date is in `start`..`end`, in time order. */
export function departuresIn(
  experience: DepartureSource,
  start: string,
  end: string,
  events: readonly BookedEvent[],
): DepartureSeats[] {
  const byStart = new Map(events.map((e) => [e.start.getTime(), e]));
  const openedByHand = new Map<string, number[]>();
  for (const event of events) {
    if (event.manual !== true) continue;
    const local = instantToLocal(event.start, experience.timezone);
    openedByHand.set(local.date, [...(openedByHand.get(local.date) ?? []), local.hhmm]);
  }
  return datesBetween(start, end).flatMap((date) => {
    const times = new Set([
      ...departuresOn(experience.schedules, date),
      ...(openedByHand.get(date) ?? []),
    ]);
    return [...times]
      .sort((a, b) => a - b)
      .flatMap((time) => {
        const instant = localToInstant(date, time, experience.timezone);
        // A time a daylight-saving change skips has no departure.
        return instant ? [seatsOf(experience, instant, byStart.get(instant.getTime()))] : [];
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
