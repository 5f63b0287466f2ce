/**
 * Rules shared by every schedule (experience departures and guide hours), as pure
 * functions: which schedules are well formed, and on which local dates a schedule applies.
 * Dates here are local calendar dates (`YYYY-MM-DD`) of the experience or event; time zones
 * are resolved by the callers.
 */
import type { FieldError } from '../../domain/errors.js';
import { isCalendarDate } from '../../query/values.js';

export interface TimeRange {
  startTime: number;
  endTime: number;
}

export interface ScheduleInput {
  id?: string;
  name?: string;
  /** `blackout` is `unavailable` by another name (newer Xola clients send it). */
  type: 'available' | 'unavailable' | 'blackout';
  repeat: 'weekly' | 'custom';
  days?: number[];
  dates?: string[];
  times?: number[];
  timeRanges?: TimeRange[];
  start?: string;
  end?: string;
  /** Experiences: whether guests depart at `times` (fixed) or pick among them (varies). */
  departure?: 'fixed' | 'varies';
  /** Experiences: added to the unit price of the departures this schedule adds. */
  priceDelta?: number;
}

export type Schedule = ScheduleInput & { id: string };

/** Whether a schedule takes time away (unavailable and blackout) rather than adding it. */
export const isClosing = (schedule: Pick<ScheduleInput, 'type'>): boolean =>
  schedule.type !== 'available';

/** The day of a schedule bound: a date, or the date as written of an ISO date-time. */
export const boundDate = (value: string): string => value.slice(0, 10);

/** A schedule as stored: bounds cut to their dates (clients may send date-times). */
export function normalizeSchedule<T extends ScheduleInput>(schedule: T): T {
  const result = { ...schedule };
  if (result.start !== undefined) result.start = boundDate(result.start);
  if (result.end !== undefined) result.end = boundDate(result.end);
  return result;
}

/** An HHMM integer with minutes below 60 (930 = 09:30; 2400 is not a time). */
export const isHhmm = (value: number): boolean =>
  Number.isInteger(value) && value >= 0 && value <= 2359 && value % 100 < 60;

export const hhmmToMinutes = (value: number): number =>
  Math.floor(value / 100) * 60 + (value % 100);

export function isDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** 0 = Sunday, as schedules count weekdays. */
export function weekday(date: string): number {
  // 1970-01-01 was a Thursday (4).
  return (((dayNumber(date) + 4) % 7) + 7) % 7;
}

/** Days since 1970-01-01 of a date (setUTCFullYear: Date.UTC reads years 0-99 as 19xx). */
export function dayNumber(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const at = new Date(0);
  at.setUTCFullYear(y, m - 1, d);
  return Math.round(at.getTime() / 86_400_000);
}

/** The date `days` after `date` (negative goes back), always written YYYY-MM-DD. */
export function addDays(date: string, days: number): string {
  const at = new Date((dayNumber(date) + days) * 86_400_000);
  const y = String(at.getUTCFullYear()).padStart(4, '0');
  const m = String(at.getUTCMonth() + 1).padStart(2, '0');
  const d = String(at.getUTCDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** Whether a schedule covers a local date: within start..end, on its weekdays or dates. */
export function appliesOn(schedule: ScheduleInput, date: string): boolean {
  if (schedule.start !== undefined && date < schedule.start) return false;
  if (schedule.end !== undefined && date > schedule.end) return false;
  return schedule.repeat === 'weekly'
    ? (schedule.days ?? []).includes(weekday(date))
    : (schedule.dates ?? []).includes(date);
}

/**
 * Problems with one schedule, named by JSON path under `path` (e.g. `schedules.0.days`).
 * `kind` says which hour fields apply: experiences list departure `times`, guides list
 * working `timeRanges`.
 */
export function scheduleErrors(
  schedule: ScheduleInput,
  path: string,
  kind: 'experience' | 'guide',
): FieldError[] {
  const errors: FieldError[] = [];
  const add = (name: string, detail: string) =>
    errors.push({ in: 'body', name: `${path}${name}`, detail });
  if (schedule.repeat === 'weekly' && (schedule.days ?? []).length === 0)
    add('days', 'a weekly schedule needs days (0 = Sunday .. 6)');
  if (schedule.repeat === 'weekly' && schedule.dates !== undefined)
    add('dates', 'dates belong to custom schedules');
  if (schedule.repeat === 'custom' && (schedule.dates ?? []).length === 0)
    add('dates', 'a custom schedule needs dates');
  if (schedule.repeat === 'custom' && schedule.days !== undefined)
    add('days', 'days belong to weekly schedules');
  (schedule.dates ?? []).forEach((d, i) => {
    if (!isDate(d)) add(`dates.${i}`, 'must be a real date YYYY-MM-DD');
  });
  for (const bound of ['start', 'end'] as const) {
    const value = schedule[bound];
    if (value !== undefined && !isDate(boundDate(value)))
      add(bound, 'must be a real date YYYY-MM-DD (or an ISO 8601 date-time on one)');
  }
  const [start, end] = [schedule.start, schedule.end].map((v) => v && boundDate(v));
  if (start && end && isDate(start) && isDate(end) && end < start) {
    add('end', 'must not be before start');
  }
  if (kind === 'experience') {
    if (schedule.timeRanges !== undefined)
      add('timeRanges', 'experience schedules list departure times');
    if (schedule.type === 'available' && (schedule.times ?? []).length === 0)
      add('times', 'an available schedule needs departure times');
    (schedule.times ?? []).forEach((t, i) => {
      if (!isHhmm(t)) add(`times.${i}`, 'must be a time HHMM with minutes below 60');
    });
    if (schedule.priceDelta !== undefined && schedule.type !== 'available')
      add('priceDelta', 'only available schedules add departures to price');
  } else {
    if (schedule.times !== undefined) add('times', 'guide schedules list timeRanges');
    if (schedule.departure !== undefined) add('departure', 'belongs to experience schedules');
    if (schedule.priceDelta !== undefined) add('priceDelta', 'belongs to experience schedules');
    (schedule.timeRanges ?? []).forEach((r, i) => {
      if (!isHhmm(r.startTime))
        add(`timeRanges.${i}.startTime`, 'must be a time HHMM with minutes below 60');
      if (!isHhmm(r.endTime) && r.endTime !== 2400)
        add(
          `timeRanges.${i}.endTime`,
          'must be a time HHMM with minutes below 60 (or 2400 for midnight)',
        );
      if (r.startTime >= r.endTime) add(`timeRanges.${i}`, 'startTime must be before endTime');
    });
  }
  return errors;
}

/** How many distinct departure times a day the available schedules list (experiences). */
export const departureTimesOf = (schedules: readonly Pick<ScheduleInput, 'type' | 'times'>[]) =>
  new Set(schedules.filter((s) => s.type === 'available').flatMap((s) => s.times ?? [])).size;

/**
 * What one experience's or guide's schedules may list together. Each schedule is bounded by
 * its schema (366 dates, 96 times, 24 ranges) and an owner by MAX_SCHEDULES, but fifty at
 * their bounds made one experience 280 KB of JSON, and a public list page of a hundred
 * 28 MB: a second of CPU and 150 MB of memory for one unauthenticated request.
 */
export const MAX_SCHEDULE_DATES = 1_000;
export const MAX_SCHEDULE_TIMES = 500;

type Listing = Pick<ScheduleInput, 'dates' | 'times' | 'timeRanges'>;

const totalsOf = (schedules: readonly Listing[]) => {
  let dates = 0;
  let times = 0;
  for (const s of schedules) {
    dates += s.dates?.length ?? 0;
    times += (s.times?.length ?? 0) + (s.timeRanges?.length ?? 0);
  }
  return { dates, times };
};

/**
 * The owner-wide bounds above, as errors on `schedules`. Only a change that lists more than
 * `before` did is held to them, so schedules stored before the bounds can still be edited
 * down (or left as they are while the rest of the owner changes).
 */
export function scheduleTotalErrors(
  schedules: readonly Listing[],
  before: readonly Listing[] = [],
): FieldError[] {
  const { dates, times } = totalsOf(schedules);
  const was = totalsOf(before);
  const errors: FieldError[] = [];
  if (dates > MAX_SCHEDULE_DATES && dates > was.dates)
    errors.push({
      in: 'body',
      name: 'schedules',
      detail: `may list at most ${MAX_SCHEDULE_DATES} dates in all (these list ${dates}); a weekly schedule covers every such day of a season`,
    });
  if (times > MAX_SCHEDULE_TIMES && times > was.times)
    errors.push({
      in: 'body',
      name: 'schedules',
      detail: `may list at most ${MAX_SCHEDULE_TIMES} times and time ranges in all (these list ${times})`,
    });
  return errors;
}
