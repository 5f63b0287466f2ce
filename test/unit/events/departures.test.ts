/**
 * Departures over a range of local dates (src/modules/events/departures.ts): the fast way
 * from one day's departure to the next gives exactly the instants `localToInstant` gives,
 * in zones with every kind of clock change (an hour, half an hour, at midnight, twice a
 * year on either hemisphere), times skipped and lived twice included; events' seats and
 * departures opened or closed by hand are merged.
 */
import { describe, expect, it } from 'vitest';
import { departuresAtStarts, departuresIn } from '../../../src/modules/events/departures.js';
import { localToInstant } from '../../../src/modules/schedules/index.js';

const TIMES = [0, 30, 100, 130, 159, 200, 230, 259, 300, 330, 1030, 2330, 2359];
const ZONES = [
  'Europe/Paris',
  'Europe/Dublin',
  'America/New_York',
  'America/Havana',
  'America/Santiago',
  'America/Mexico_City',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'UTC',
];
const daily = [
  { id: 's1', type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: TIMES },
] as never;

const dates = (start: string, days: number) =>
  Array.from({ length: days }, (_, i) =>
    new Date(Date.parse(`${start}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10),
  );

describe('departures over a range', () => {
  it.each(ZONES)('gives the instants localToInstant gives, in %s', (zone) => {
    const found = departuresIn(
      { schedules: daily, timezone: zone, outingMax: 10 },
      '2029-01-01',
      '2030-12-31',
      [],
    );
    const expected = dates('2029-01-01', 730).flatMap((date) =>
      TIMES.flatMap((time) => {
        const at = localToInstant(date, time, zone);
        return at ? [at.toISOString()] : [];
      }),
    );
    expect(found.map((d) => d.start.toISOString())).toEqual(expected);
  });

  it('merges events: seats, closed by hand, opened by hand', () => {
    const experience = { schedules: daily, timezone: 'UTC', outingMax: 10 };
    const at = (text: string) => new Date(text);
    const found = departuresIn(experience, '2030-06-01', '2030-06-01', [
      { start: at('2030-06-01T10:30:00Z'), max: 12, reserved: 5, manual: null },
      { start: at('2030-06-01T23:30:00Z'), max: 10, reserved: 0, manual: false },
      { start: at('2030-06-01T12:15:00Z'), max: 4, reserved: 1, manual: true },
    ]);
    expect(found.find((d) => d.start.toISOString() === '2030-06-01T10:30:00.000Z')).toEqual({
      start: at('2030-06-01T10:30:00Z'),
      capacity: 12,
      reserved: 5,
      closed: false,
    });
    expect(
      found.find((d) => d.start.getUTCHours() === 23 && d.start.getUTCMinutes() === 30),
    ).toMatchObject({ closed: true });
    expect(found.find((d) => d.start.getUTCHours() === 12)).toMatchObject({ capacity: 4 });
    expect(found.find((d) => d.start.getUTCHours() === 1)).toMatchObject({
      capacity: 10,
      reserved: 0,
    });
    // At given starts: only those the schedules offer or an event opened by hand.
    expect(
      departuresAtStarts(
        experience,
        [at('2030-06-01T12:15:00Z'), at('2030-06-01T12:16:00Z'), at('2030-06-02T10:30:00Z')],
        [{ start: at('2030-06-01T12:15:00Z'), max: 4, reserved: 1, manual: true }],
      ).map((d) => d.start.toISOString()),
    ).toEqual(['2030-06-01T12:15:00.000Z', '2030-06-02T10:30:00.000Z']);
  });
});
