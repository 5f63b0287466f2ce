/**
 * Local dates and times of an IANA time zone, through Luxon: never hand-rolled offset
 * arithmetic, so daylight-saving changes come out right.
 */
import { DateTime, IANAZone } from 'luxon';
import { wallClockText } from '../../domain/instant-text.js';
import { hhmmToMinutes } from './schedule.rules.js';
import { offsetAt, zoneNamed } from './zone-offsets.js';

export function isTimeZone(zone: string): boolean {
  return IANAZone.isValidZone(zone);
}

/** The canonical spelling of a valid zone (`europe/paris` -> `Europe/Paris`). */
export function canonicalZone(zone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
}

const DAY_MS = 86_400_000;

/**
 * The instant of a local date and HHMM time in `zone`, or undefined when that local time
 * does not exist (skipped by a daylight-saving change). A wall-clock time lived twice (a
 * fall-back night) means its second occurrence. The instant is the wall time less the
 * zone's offset, tried with the offsets a day before and a day after (the two sides of any
 * change of the clocks near it: a zone changes them at most once in a few days), each kept
 * only if it is the zone's offset at the instant found; the offsets come from Luxon, cached
 * per hour (zone-offsets.ts).
 */
export function localToInstant(date: string, hhmm: number, zone: string): Date | undefined {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const minutes = hhmmToMinutes(hhmm);
  const luxonZone = zoneNamed(zone);
  if (!luxonZone) return undefined;
  // The wall clock read as UTC (setUTCFullYear: years below 100 are not 19xx).
  const wall = new Date(0);
  wall.setUTCFullYear(year, month - 1, day);
  wall.setUTCHours(Math.floor(minutes / 60), minutes % 60);
  // A day or an hour out of range rolls over: such a local time does not exist.
  if (wall.getUTCFullYear() !== year || wall.getUTCMonth() !== month - 1) return undefined;
  if (wall.getUTCDate() !== day) return undefined;
  const wallMs = wall.getTime();
  let found: number | undefined;
  for (const side of [-DAY_MS, DAY_MS]) {
    const offset = offsetAt(zone, luxonZone, wallMs + side);
    const instant = wallMs - offset * 60_000;
    if (offsetAt(zone, luxonZone, instant) === offset && (found === undefined || instant > found))
      found = instant;
  }
  return found === undefined ? undefined : new Date(found);
}

/**
 * The local date and HHMM time of an instant in `zone`. The offset from the per-hour cache
 * (zone-offsets.ts), the text as localIso writes it: through Luxon it was two zone lookups
 * a departure, most of a year's OCTo calendar (1 s). Outside years 1-9999, Luxon's.
 */
export function instantToLocal(instant: Date, zone: string): { date: string; hhmm: number } {
  const ms = instant.getTime();
  const luxonZone = zoneNamed(zone);
  const text = luxonZone && wallClockText(ms + offsetAt(zone, luxonZone, ms) * 60_000);
  if (text) {
    const hhmm = Number(text.slice(11, 13)) * 100 + Number(text.slice(14, 16));
    return { date: text.slice(0, 10), hhmm };
  }
  const local = DateTime.fromJSDate(instant, { zone });
  return { date: local.toISODate()!, hhmm: local.hour * 100 + local.minute };
}

/**
 * Whether a departure can be named by its local date and HHMM time, as availability lists
 * departures and bookings name them: the instant is whole minutes, and not the first
 * occurrence of a wall-clock time lived twice (`localToInstant` means the second).
 */
export function isDepartureStart(instant: Date, zone: string): boolean {
  const { date, hhmm } = instantToLocal(instant, zone);
  return localToInstant(date, hhmm, zone)?.getTime() === instant.getTime();
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
    // A fall-back night's local time, as bookings read it (its second occurrence): Luxon
    // picks the occurrence whose offset the zone has today, so July and January differed.
    const at = localToInstant(local.slice(0, 10), hour * 100 + minute, zone);
    return at && new Date(at.getTime() + parsed.second * 1000 + parsed.millisecond);
  }
  return parsed.toJSDate();
}
