/**
 * Local dates and times of an IANA time zone, through Luxon: never hand-rolled offset
 * arithmetic, so daylight-saving changes come out right.
 */
import { DateTime, IANAZone } from 'luxon';
import { hhmmToMinutes } from './schedule.rules.js';

export function isTimeZone(zone: string): boolean {
  return IANAZone.isValidZone(zone);
}

/** The canonical spelling of a valid zone (`europe/paris` -> `Europe/Paris`). */
export function canonicalZone(zone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
}

/**
 * The instant of a local date and HHMM time in `zone`, or undefined when that local time
 * does not exist (skipped by a daylight-saving change).
 */
export function localToInstant(date: string, hhmm: number, zone: string): Date | undefined {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const minutes = hhmmToMinutes(hhmm);
  const local = DateTime.fromObject(
    { year, month, day, hour: Math.floor(minutes / 60), minute: minutes % 60 },
    { zone },
  );
  if (!local.isValid) return undefined;
  // Luxon moves a skipped time forward; a changed wall clock means it never existed.
  if (local.hour * 60 + local.minute !== minutes || local.day !== day) return undefined;
  return laterOccurrence(local).toJSDate();
}

/**
 * A wall-clock time lived twice (a fall-back night) means its second occurrence. Luxon
 * mostly picks it, but not at the very first minute of the repeated span (02:00 on Sydney's
 * 2020-04-05): when the offset drops within the next hour, the same wall time a shift later
 * is the one meant.
 */
function laterOccurrence(local: DateTime): DateTime {
  const shift = local.offset - local.plus({ hours: 1 }).offset;
  if (shift <= 0) return local;
  const later = local.plus({ minutes: shift });
  return later.hour === local.hour && later.minute === local.minute && later.day === local.day
    ? later
    : local;
}

/** The local date and HHMM time of an instant in `zone`. */
export function instantToLocal(instant: Date, zone: string): { date: string; hhmm: number } {
  const local = DateTime.fromJSDate(instant, { zone });
  return { date: local.toISODate()!, hhmm: local.hour * 100 + local.minute };
}

const START =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * Parses an event start: ISO 8601 with an offset (`Z`, `+02`, `+0200`, `+02:00`), or a
 * local date-time without one, read in `zone`. Undefined when malformed or when the local
 * time does not exist.
 */
export function parseStart(text: string, zone: string): Date | undefined {
  const match = START.exec(text);
  if (!match) return undefined;
  const [, local, offset] = match as unknown as [string, string, string | undefined];
  if (offset && offset.toUpperCase() !== 'Z') {
    const digits = offset.slice(1).replace(':', '');
    // Real offsets stay within ±18:00 (ISO 8601, java.time); minutes below 60.
    if (Number(digits.slice(0, 2)) > 18 || Number(digits.slice(2) || '0') > 59) return undefined;
  }
  const parsed = offset
    ? DateTime.fromISO(`${local}${offset.length === 3 ? `${offset}:00` : offset}`, {
        setZone: true,
      })
    : DateTime.fromISO(local, { zone });
  if (!parsed.isValid) return undefined;
  if (!offset) {
    const [hour, minute] = local.slice(11, 16).split(':').map(Number) as [number, number];
    // Luxon moves a skipped local time forward: a changed wall clock never existed.
    if (parsed.hour !== hour || parsed.minute !== minute) return undefined;
  }
  return parsed.toJSDate();
}
