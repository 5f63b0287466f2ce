/**
 * A time zone's offset at an instant, cached per zone and UTC day. Luxon finds an offset by
 * formatting the instant through Intl in the zone, about 10 µs a call and several calls per
 * local time read (a booking reads each item's departure): 6 % of a booking's Node time.
 *
 * A day is cached when Luxon gives the same offset at its first and its last millisecond:
 * a zone changes its clocks at most once in a few days (the tz database's closest two
 * changes of one zone from 1971 to 2070 are 166 hours apart; local-time.ts relies on the
 * same), so it keeps that offset all day. A day in which the zone changes its clocks is
 * cached per UTC hour in the same way, and an hour in which it changes them is always asked
 * of Luxon.
 *
 * Per day, not per hour only: a platform whose sellers are in twenty zones and sell two
 * years ahead reads about 330,000 zone-hours but only 14,000 zone-days, and a cache of hours
 * missed on most bookings spread over such departures (docs/performance.md, issue 27,
 * twenty-seventh pass). Bounded: emptied at MAX_OFFSETS entries, days and hours together.
 */
import { Info, type Zone } from 'luxon';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
export const MAX_OFFSETS = 50_000;

/** A day's entry when the zone changes its clocks in it: its hours are cached instead. */
const CHANGES = null;

const zones = new Map<string, Zone>();
/** Per zone: its offset per UTC day number, or CHANGES. */
const days = new Map<string, Map<number, number | typeof CHANGES>>();
/** Per zone: its offset per UTC hour number, for the days that are CHANGES. */
const hours = new Map<string, Map<number, number>>();
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

/** The entries of `zoneName` in `within`, made when missing; all are emptied when full. */
function entriesOf<V>(within: Map<string, Map<number, V>>, zoneName: string): Map<number, V> {
  if (cached >= MAX_OFFSETS) {
    days.clear();
    hours.clear();
    cached = 0;
  }
  let entries = within.get(zoneName);
  if (!entries) within.set(zoneName, (entries = new Map<number, V>()));
  cached++;
  return entries;
}

/**
 * The offset of `zone` over the span of `length` ms numbered `n`, when Luxon gives the
 * same at its first and last millisecond; undefined when the zone changes its clocks in it.
 */
function steadyOffset(zone: Zone, n: number, length: number): number | undefined {
  const first = zone.offset(n * length);
  return first === zone.offset((n + 1) * length - 1) ? first : undefined;
}

/** The offset of `zone` at the instant `ms`, in minutes (Luxon's `Zone.offset`). */
export function offsetAt(zoneName: string, zone: Zone, ms: number): number {
  const day = Math.floor(ms / DAY_MS);
  let ofDay = days.get(zoneName)?.get(day);
  if (ofDay === undefined) {
    ofDay = steadyOffset(zone, day, DAY_MS) ?? CHANGES;
    entriesOf(days, zoneName).set(day, ofDay);
  }
  if (ofDay !== CHANGES) return ofDay;
  const hour = Math.floor(ms / HOUR_MS);
  const ofHour = hours.get(zoneName)?.get(hour);
  if (ofHour !== undefined) return ofHour;
  const steady = steadyOffset(zone, hour, HOUR_MS);
  if (steady === undefined) return zone.offset(ms);
  entriesOf(hours, zoneName).set(hour, steady);
  return steady;
}
