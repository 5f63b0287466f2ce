/**
 * localIso writes the text itself from cached offsets; this proves it writes Luxon's: random
 * instants in a spread of zones (DST, half-hour and 45-minute offsets, historical LMT, a
 * fixed Etc zone), and every zone Intl knows, asked twice and across the offset cache's
 * emptying, equal Luxon's own formatting every time.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { MAX_OFFSETS } from '../../src/modules/schedules/zone-offsets.js';
import { localIso } from '../../src/modules/shared/views.js';

const ZONES = [
  'UTC',
  'Europe/Zurich',
  'Europe/London',
  'America/New_York',
  'America/St_Johns',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Etc/GMT+5',
];
const luxon = (ms: number, zone: string) =>
  DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true });

// Years 1 to 9999, the range the API stores.
const instant = fc.integer({
  min: new Date('0001-01-01T00:00:00Z').getTime(),
  max: Date.UTC(9999, 11, 31),
});

describe('localIso', () => {
  it('equals Luxon for any instant and zone, on a miss and on a hit', () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...ZONES), (ms, zone) => {
        const expected = luxon(ms, zone);
        expect(localIso(new Date(ms), zone)).toBe(expected);
        expect(localIso(new Date(ms), zone)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('equals Luxon in every zone Intl knows, milliseconds included', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2100, 0, 1) }),
        fc.constantFrom(...Intl.supportedValuesOf('timeZone'), 'utc', 'GMT', 'Etc/UTC'),
        (ms, zone) => {
          expect(localIso(new Date(ms), zone)).toBe(luxon(ms, zone));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('keeps answering correctly after the offset cache is emptied', () => {
    const base = Date.UTC(2024, 2, 31, 0, 0);
    for (let i = 0; i < MAX_OFFSETS + 50; i++) localIso(new Date(base + i * 3_600_000), 'UTC');
    // Across the spring-forward change in Zurich, after the emptying.
    expect(localIso(new Date(Date.UTC(2024, 2, 31, 0, 30)), 'Europe/Zurich')).toBe(
      '2024-03-31T01:30:00+01:00',
    );
    expect(localIso(new Date(Date.UTC(2024, 2, 31, 1, 30)), 'Europe/Zurich')).toBe(
      '2024-03-31T03:30:00+02:00',
    );
  });
});
