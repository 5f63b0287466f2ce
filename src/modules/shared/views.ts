/** Small pieces every API object shares: references and timestamps. */
import { DateTime } from 'luxon';
import { offsetAt, zoneNamed } from '../schedules/index.js';
import { utcIso, wallClockText } from './instant-text.js';

export interface Ref {
  id: string;
}

export const ref = (id: string): Ref => ({ id });
export const refOrNull = (id: string | null): Ref | null => (id === null ? null : { id });

/** Reads `{id}` out of a reference in an API object (for the query evaluator). */
export const refId = (value: unknown): string | null =>
  value && typeof value === 'object' ? ((value as Ref).id ?? null) : null;

export const iso = (date: Date): string => utcIso(date.getTime());

/**
 * An instant as ISO 8601 with the offset it has in `timezone` (e.g. 2019-11-08T10:00:00+01:00),
 * written as Luxon's `toISO({ suppressMilliseconds: true })` writes it. Zone rules come from
 * Intl, about 27 µs a call through Luxon (1 ms per page of orders); the offset is read from
 * the per-hour cache the schedules keep (schedules/zone-offsets.ts) and the text is made
 * here. `Z` only for a zone Luxon reads as fixed at offset 0 (`UTC`). Outside years 1-9999,
 * and for a name Luxon does not know, Luxon writes it.
 */
export function localIso(instant: Date, timezone: string): string {
  const ms = instant.getTime();
  const zone = zoneNamed(timezone);
  if (zone) {
    const offset = offsetAt(timezone, zone, ms);
    const wallClock = wallClockText(ms + offset * 60_000);
    if (wallClock !== undefined) return wallClock + offsetText(zone.isUniversal, offset);
  }
  return DateTime.fromMillis(ms, { zone: timezone }).toISO({ suppressMilliseconds: true })!;
}

const twoDigits = (n: number) => (n < 10 ? `0${n}` : String(n));
/** Offset texts by minutes east: a page's instants share a few. */
const offsetTexts = new Map<number, string>();

/** `Z` for a universal zone at offset 0, else `+hh:mm` / `-hh:mm`. */
function offsetText(universal: boolean, minutes: number): string {
  if (universal && minutes === 0) return 'Z';
  let text = offsetTexts.get(minutes);
  if (text === undefined) {
    const sign = minutes < 0 ? '-' : '+';
    const size = Math.abs(minutes);
    text = `${sign}${twoDigits(Math.trunc(size / 60))}:${twoDigits(Math.trunc(size % 60))}`;
    // Offsets are whole minutes in all but a few historical zones: the map stays small.
    if (offsetTexts.size < 1024) offsetTexts.set(minutes, text);
  }
  return text;
}
