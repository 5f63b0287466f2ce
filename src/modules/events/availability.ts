/**
 * Availability of an experience over a date range: each local date's departures (from
 * the schedules, plus the events opened by hand) with the seats still open, from the
 * events already made (none on one closed by hand). Pure, given the events found.
 */
import {
  addDays,
  dayNumber,
  departuresOn,
  hhmmKey,
  instantToLocal,
  localToInstant,
  type ScheduleInput,
} from '../schedules/index.js';
import { seatsOpen } from './events.schemas.js';

export const MAX_AVAILABILITY_DAYS = 62;

export interface BookedEvent {
  start: Date;
  max: number | null;
  reserved: number;
  manual: boolean | null;
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

/**
 * Instants surely around the range's local dates, whatever the zone (offsets stay within
 * ±14 h): where to look for events opened by hand, whose local date is then checked.
 */
export function rangeAround(start: string, end: string): { from: Date; to: Date } {
  const HOURS_14 = 14 * 3_600_000;
  return {
    from: new Date(dayNumber(start) * 86_400_000 - HOURS_14),
    to: new Date((dayNumber(end) + 1) * 86_400_000 + HOURS_14),
  };
}

/**
 * The local HHMM times of the events opened by hand, by local date. Pushed, not copied: a
 * copy per event made a day of a thousand such events a million writes.
 */
export function openedByHandByDate(
  events: readonly BookedEvent[],
  zone: string,
): Map<string, number[]> {
  const byDate = new Map<string, number[]>();
  for (const event of events) {
    if (event.manual !== true) continue;
    const { date, hhmm } = instantToLocal(event.start, zone);
    const times = byDate.get(date);
    if (times) times.push(hhmm);
    else byDate.set(date, [hhmm]);
  }
  return byDate;
}

export function availability(
  input: AvailabilityInput,
  events: readonly BookedEvent[],
): Record<string, Record<string, number | null>> {
  const byStart = new Map(events.map((e) => [e.start.getTime(), e]));
  const openedByHand = openedByHandByDate(events, input.timezone);
  const result: Record<string, Record<string, number | null>> = {};
  for (const date of datesBetween(input.start, input.end)) {
    const day: Record<string, number | null> = {};
    const times = new Set([
      ...departuresOn(input.schedules, date),
      ...(openedByHand.get(date) ?? []),
    ]);
    for (const time of [...times].sort((a, b) => a - b)) {
      const instant = localToInstant(date, time, input.timezone);
      if (!instant) continue; // skipped by a daylight-saving change
      const event = byStart.get(instant.getTime());
      day[hhmmKey(time)] = event ? seatsOpen(event) : input.outingMax;
    }
    result[date] = day;
  }
  return result;
}
