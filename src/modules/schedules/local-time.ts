/**
 * Local dates and times of an IANA time zone, through Luxon: never hand-rolled offset
 * arithmetic, so daylight-saving changes come out right.
 */
import { DateTime, IANAZone } from 'luxon';
import { hhmmToMinutes } from './schedule.rules.js';

export function isTimeZone(zone: string): boolean {
  return IANAZone.isValidZone(zone);
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
  return local.toJSDate();
}

/** The local date and HHMM time of an instant in `zone`. */
export function instantToLocal(instant: Date, zone: string): { date: string; hhmm: number } {
  const local = DateTime.fromJSDate(instant, { zone });
  return { date: local.toISODate()!, hhmm: local.hour * 100 + local.minute };
}

/**
 * Parses an event start: ISO 8601 with an offset or Z, or a local date-time without one,
 * read in `zone`. Undefined when malformed or when the local time does not exist.
 */
export function parseStart(text: string, zone: string): Date | undefined {
  const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/i.test(text);
  const parsed = DateTime.fromISO(text, { zone, setZone: hasOffset });
  if (!parsed.isValid || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text)) return undefined;
  if (!hasOffset) {
    const wanted = /T(\d{2}):(\d{2})/.exec(text)!;
    if (parsed.hour !== Number(wanted[1]) || parsed.minute !== Number(wanted[2])) return undefined;
  }
  return parsed.toJSDate();
}
