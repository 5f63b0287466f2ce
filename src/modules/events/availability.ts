/**
 * Availability of an experience over a date range: each local date's departures (from
 * the schedules) with the seats still open, from the events already booked. Pure, given
 * the events found.
 */
import {
  addDays,
  dayNumber,
  departuresOn,
  hhmmKey,
  localToInstant,
  type ScheduleInput,
} from '../schedules/index.js';

export const MAX_AVAILABILITY_DAYS = 62;

export interface BookedEvent {
  start: Date;
  max: number | null;
  reserved: number;
}

export interface AvailabilityInput {
  schedules: readonly ScheduleInput[];
  timezone: string;
  /** Seats of an event not created yet; null = unlimited. */
  outingMax: number | null;
  start: string;
  end: string;
}

/** How many dates from start to end, inclusive (0 when end is before start). */
export function daysBetween(start: string, end: string): number {
  return Math.max(0, dayNumber(end) - dayNumber(start) + 1);
}

/** Every date from start to end, inclusive. */
export function datesBetween(start: string, end: string): string[] {
  return Array.from({ length: daysBetween(start, end) }, (_, i) => addDays(start, i));
}

/** The departures of the range as instants, for fetching their events in one query. */
export function departureInstants(input: AvailabilityInput): Date[] {
  return datesBetween(input.start, input.end).flatMap((date) =>
    departuresOn(input.schedules, date)
      .map((time) => localToInstant(date, time, input.timezone))
      .filter((instant): instant is Date => instant !== undefined),
  );
}

export function availability(
  input: AvailabilityInput,
  events: readonly BookedEvent[],
): Record<string, Record<string, number | null>> {
  const byStart = new Map(events.map((e) => [e.start.getTime(), e]));
  const result: Record<string, Record<string, number | null>> = {};
  for (const date of datesBetween(input.start, input.end)) {
    const day: Record<string, number | null> = {};
    for (const time of departuresOn(input.schedules, date)) {
      const instant = localToInstant(date, time, input.timezone);
      if (!instant) continue; // skipped by a daylight-saving change
      const event = byStart.get(instant.getTime());
      const max = event ? event.max : input.outingMax;
      day[hhmmKey(time)] = max === null ? null : Math.max(0, max - (event?.reserved ?? 0));
    }
    result[date] = day;
  }
  return result;
}
