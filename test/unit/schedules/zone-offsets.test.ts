/**
 * Time-zone offsets cached per day and hour (src/modules/schedules/zone-offsets.ts) and the
 * local times read with them (`localToInstant`), against Luxon itself in every zone Intl
 * knows, over a century of instants and local times: daylight-saving changes, half-hour and
 * 45-minute zones, zones that changed their standard offset.
 */
import fc from 'fast-check';
import { DateTime, Info } from 'luxon';
import { describe, expect, it } from 'vitest';
import { instantToLocal, localToInstant } from '../../../src/modules/schedules/local-time.js';
import { offsetAt, zoneNamed } from '../../../src/modules/schedules/zone-offsets.js';

const ZONES = Intl.supportedValuesOf('timeZone');
const FROM = Date.UTC(1971, 0, 1);
const TO = Date.UTC(2070, 0, 1);
const HOUR = 3_600_000;

/**
 * The local time's instant by Luxon alone: every offset the zone has within two days of
 * it tried, each instant kept when Luxon shows it at that wall clock; the latest one.
 */
function byLuxon(date: string, hhmm: number, zone: string): Date | undefined {
  const wall = Date.parse(`${date}T${String(hhmm).padStart(4, '0').replace(/(..)$/, ':$1')}Z`);
  const luxon = Info.normalizeZone(zone);
  const tried = new Set<number>();
  for (let h = -48; h <= 48; h++) tried.add(luxon.offset(wall + h * HOUR));
  const shows = (ms: number) =>
    DateTime.fromMillis(ms, { zone }).toFormat('yyyy-MM-dd HHmm') ===
    `${date} ${String(hhmm).padStart(4, '0')}`;
  const found = [...tried].map((o) => wall - o * 60_000).filter(shows);
  return found.length === 0 ? undefined : new Date(Math.max(...found));
}

describe('instantToLocal', () => {
  it("is Luxon's local date and HHMM of any instant, in any zone", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        // Years 1 to 9999 (and past them, Luxon's own answer), the last minute before
        // and after a change of the clocks included by the spread.
        fc.integer({ min: Date.UTC(-1, 0, 1), max: Date.UTC(10001, 0, 1) }),
        fc.integer({ min: FROM, max: TO }),
        (zone, anyMs, recentMs) => {
          for (const ms of [anyMs, recentMs]) {
            const local = DateTime.fromMillis(ms, { zone });
            expect(instantToLocal(new Date(ms), zone)).toEqual({
              date: local.toISODate(),
              hhmm: local.hour * 100 + local.minute,
            });
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("is Luxon's at every quarter of an hour of a year, each change of the clocks included", () => {
    const zones = ['Europe/Paris', 'America/New_York', 'Australia/Lord_Howe', 'America/Havana'];
    for (const zone of zones)
      for (let ms = Date.UTC(2019, 0, 1); ms < Date.UTC(2020, 0, 1); ms += HOUR / 4) {
        const local = DateTime.fromMillis(ms, { zone });
        const { date, hhmm } = instantToLocal(new Date(ms), zone);
        if (date !== local.toISODate() || hhmm !== local.hour * 100 + local.minute)
          expect({ zone, at: new Date(ms), date, hhmm }).toEqual({
            zone,
            at: new Date(ms),
            date: local.toISODate(),
            hhmm: local.hour * 100 + local.minute,
          });
      }
  });
});

describe('offsetAt', () => {
  it("is Luxon's offset at any instant, hours seen before or not", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: FROM, max: TO }),
        fc.integer({ min: -3 * HOUR, max: 3 * HOUR }),
        (zone, ms, step) => {
          const luxon = zoneNamed(zone)!;
          for (const at of [ms, ms + step, ms])
            expect(offsetAt(zone, luxon, at)).toBe(luxon.offset(at));
        },
      ),
      { numRuns: 800 },
    );
  });

  it("is Luxon's offset at the minutes around a change of the clocks", () => {
    // Europe/Paris 2019-03-31 01:00Z, Australia/Lord_Howe's half-hour change 2019-04-06 15:00Z.
    for (const [zone, change] of [
      ['Europe/Paris', Date.UTC(2019, 2, 31, 1)],
      ['Australia/Lord_Howe', Date.UTC(2019, 3, 6, 15)],
    ] as const) {
      const luxon = zoneNamed(zone)!;
      for (let ms = change - 2 * HOUR; ms <= change + 2 * HOUR; ms += 60_000)
        expect(offsetAt(zone, luxon, ms)).toBe(luxon.offset(ms));
    }
  });

  it('asks Luxon once per day the zone keeps one offset, and per hour on a day it changes', () => {
    const paris = zoneNamed('Europe/Paris')!;
    let asked = 0;
    // Paris's rules, counted; under a name of its own, so nothing else has filled its cache.
    const counted = Object.create(paris, {
      offset: { value: (ms: number) => (asked++, paris.offset(ms)) },
    }) as typeof paris;
    const read = (ms: number) => offsetAt('Europe/Paris (counted)', counted, ms);
    const summer = Date.UTC(2019, 5, 15);
    expect(read(summer + 30 * 60_000)).toBe(120);
    const once = asked;
    for (let h = 0; h < 24; h++) expect(read(summer + h * HOUR + 59 * 60_000)).toBe(120);
    expect(asked).toBe(once);

    // 2019-03-31: +1 until 01:00Z, +2 after; the day is cached per hour, each asked once.
    const change = Date.UTC(2019, 2, 31, 1);
    const hoursOfTheDay = [change - 2 * HOUR, change + 3 * HOUR];
    hoursOfTheDay.forEach(read);
    asked = 0;
    hoursOfTheDay.forEach(read);
    expect(asked).toBe(0);
    expect(read(change - 60_000)).toBe(60);
    expect(read(change)).toBe(120);
  });

  it('names no zone for a name Luxon does not know', () => {
    expect(zoneNamed('Mars/Olympus')).toBeUndefined();
  });
});

describe('localToInstant against Luxon', () => {
  it('finds the latest instant showing the local time, or none', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: FROM + 3 * 86_400_000, max: TO }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        (zone, ms, hour, minute) => {
          const date = new Date(ms).toISOString().slice(0, 10);
          const hhmm = hour * 100 + minute;
          expect(localToInstant(date, hhmm, zone)?.toISOString()).toBe(
            byLuxon(date, hhmm, zone)?.toISOString(),
          );
        },
      ),
      { numRuns: 800 },
    );
  });

  it('agrees with Luxon on the hours around changes of the clocks', () => {
    // Days on which zones changed their clocks: spring, fall, a skipped day (Samoa, 2011).
    for (const [zone, date] of [
      ['Europe/Paris', '2019-03-31'],
      ['Europe/Paris', '2019-10-27'],
      ['America/Sao_Paulo', '2018-11-04'],
      ['Australia/Sydney', '2020-04-05'],
      ['Australia/Lord_Howe', '2019-04-07'],
      ['Australia/Lord_Howe', '2019-10-06'],
      ['Pacific/Apia', '2011-12-30'],
      ['America/Havana', '2019-03-10'],
    ] as const) {
      for (let hhmm = 0; hhmm < 2400; hhmm += hhmm % 100 === 45 ? 55 : 15)
        expect(localToInstant(date, hhmm, zone)?.toISOString(), `${zone} ${date} ${hhmm}`).toBe(
          byLuxon(date, hhmm, zone)?.toISOString(),
        );
    }
  });
});
