/**
 * A time zone's offset at an instant, cached per zone and UTC hour. Luxon finds an offset
 * by formatting the instant through Intl in the zone, about 10 µs a call and several calls
 * per local time read (a booking reads each item's departure): 6 % of a booking's Node time.
 * An hour is cached only when Luxon gives the same offset at its first and its last
 * millisecond, so an hour in which the zone changes its clocks is always asked of Luxon
 * (no zone changes twice within an hour). Bounded: emptied at MAX_OFFSETS entries.
 */
import { Info, type Zone } from 'luxon';

const HOUR_MS = 3_600_000;
export const MAX_OFFSETS = 50_000;

const zones = new Map<string, Zone>();
const offsets = new Map<string, Map<number, number>>();
let cached = 0;

/** Luxon's zone of a name (undefined when it names none). */
export function zoneNamed(name: string): Zone | undefined {
  let zone = zones.get(name);
  if (!zone) {
    zone = Info.normalizeZone(name);
    if (!zone.isValid) return undefined;
    zones.set(name, zone);
  }
  return zone;
}

/** The offset of `zone` at the instant `ms`, in minutes (Luxon's `Zone.offset`). */
export function offsetAt(zoneName: string, zone: Zone, ms: number): number {
  const hour = Math.floor(ms / HOUR_MS);
  let byHour = offsets.get(zoneName);
  const hit = byHour?.get(hour);
  if (hit !== undefined) return hit;
  const first = zone.offset(hour * HOUR_MS);
  if (first !== zone.offset((hour + 1) * HOUR_MS - 1)) return zone.offset(ms);
  if (cached >= MAX_OFFSETS) {
    offsets.clear();
    cached = 0;
    byHour = undefined;
  }
  if (!byHour) offsets.set(zoneName, (byHour = new Map<number, number>()));
  byHour.set(hour, first);
  cached++;
  return first;
}
