/** Small pieces every API object shares: references and timestamps. */
import { DateTime } from 'luxon';
import { offsetAt, zoneNamed } from '../schedules/index.js';
import { offsetText, utcIso, wallClockText } from '../../domain/instant-text.js';

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
    if (wallClock !== undefined)
      return wallClock + (zone.isUniversal && offset === 0 ? 'Z' : offsetText(offset));
  }
  return DateTime.fromMillis(ms, { zone: timezone }).toISO({ suppressMilliseconds: true })!;
}
