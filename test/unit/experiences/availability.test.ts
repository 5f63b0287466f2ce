import { describe, expect, it } from 'vitest';
import {
  MAX_AVAILABILITY_DAYS,
  availability,
  datesBetween,
  daysBetween,
  departureInstants,
  type AvailabilityInput,
  type BookedEvent,
} from '../../../src/modules/events/availability.js';
import type { ScheduleInput } from '../../../src/modules/schedules/schedule.rules.js';

// 2019-11-04 is a Monday.
const weekdays: ScheduleInput = {
  type: 'available',
  repeat: 'weekly',
  days: [1, 2, 3, 4, 5],
  times: [900, 1400],
};

const input = (more: Partial<AvailabilityInput> = {}): AvailabilityInput => ({
  schedules: [weekdays],
  timezone: 'UTC',
  outingMax: 10,
  start: '2019-11-04',
  end: '2019-11-04',
  ...more,
});

const event = (
  start: string,
  reserved: number,
  max: number | null = 10,
  manual: boolean | null = null,
): BookedEvent => ({
  start: new Date(start),
  max,
  reserved,
  manual,
});

describe('datesBetween', () => {
  it('lists every date from start to end, both included', () => {
    expect(datesBetween('2019-11-04', '2019-11-04')).toEqual(['2019-11-04']);
    expect(datesBetween('2019-11-04', '2019-11-06')).toEqual([
      '2019-11-04',
      '2019-11-05',
      '2019-11-06',
    ]);
  });

  it('crosses month, leap-day and year ends', () => {
    expect(datesBetween('2020-02-28', '2020-03-01')).toEqual([
      '2020-02-28',
      '2020-02-29',
      '2020-03-01',
    ]);
    expect(datesBetween('2019-12-31', '2020-01-01')).toEqual(['2019-12-31', '2020-01-01']);
  });

  it('is empty when end is before start', () => {
    expect(datesBetween('2019-11-05', '2019-11-04')).toEqual([]);
  });

  it('counts 62 days for a two-month window', () => {
    expect(MAX_AVAILABILITY_DAYS).toBe(62);
    const dates = datesBetween('2019-11-01', '2020-01-01');
    expect(dates).toHaveLength(62);
    expect(new Set(dates).size).toBe(62);
    expect(dates.at(-1)).toBe('2020-01-01');
  });

  it('counts a range of millennia without listing it', () => {
    // The 62-day limit is checked on this count, so a huge range costs nothing to refuse.
    expect(daysBetween('1000-01-01', '9999-12-31')).toBe(3_287_182);
    expect(daysBetween('2019-11-05', '2019-11-04')).toBe(0);
  });

  it('reaches the last representable date, 9999-12-31', () => {
    expect(datesBetween('9999-12-30', '9999-12-31')).toEqual(['9999-12-30', '9999-12-31']);
  });
});

describe('availability', () => {
  it('shows a departure closed by hand with no seats, and one opened by hand off the schedule', () => {
    const result = availability(input({ timezone: 'Europe/Paris', end: '2019-11-05' }), [
      event('2019-11-04T08:00:00Z', 2, 10, false), // 09:00 in Paris, closed
      event('2019-11-04T10:30:00Z', 3, 10, true), // 11:30, not scheduled, opened
      event('2019-11-05T13:00:00Z', 4, 10, true), // 14:00, scheduled and opened
      event('2019-11-06T09:00:00Z', 0, 10, true), // another date: outside the range
    ]);
    expect(result).toEqual({
      '2019-11-04': { '900': 0, '1130': 7, '1400': 10 },
      '2019-11-05': { '900': 10, '1400': 6 },
    });
    expect(Object.keys(result['2019-11-04']!)).toEqual(['900', '1130', '1400']);
  });

  it('puts a departure opened by hand on its local date, not its UTC one', () => {
    // 23:30 on the 4th in New York is the 5th in UTC.
    const result = availability(
      input({
        timezone: 'America/New_York',
        start: '2019-11-04',
        end: '2019-11-05',
        schedules: [],
      }),
      [event('2019-11-05T04:30:00Z', 1, 5, true)],
    );
    expect(result).toEqual({ '2019-11-04': { '2330': 4 }, '2019-11-05': {} });
  });

  it('offers outingMax seats at every departure without an event', () => {
    expect(availability(input({ end: '2019-11-05' }), [])).toEqual({
      '2019-11-04': { '900': 10, '1400': 10 },
      '2019-11-05': { '900': 10, '1400': 10 },
    });
  });

  it('has an empty object for a date without departures', () => {
    expect(availability(input({ start: '2019-11-08', end: '2019-11-11' }), [])).toEqual({
      '2019-11-08': { '900': 10, '1400': 10 }, // Friday
      '2019-11-09': {},
      '2019-11-10': {},
      '2019-11-11': { '900': 10, '1400': 10 },
    });
  });

  it('subtracts the seats reserved on an event, using that event max', () => {
    const events = [
      event('2019-11-04T09:00:00Z', 3),
      event('2019-11-04T14:00:00Z', 2, 4), // a max of its own
    ];
    expect(availability(input(), events)).toEqual({ '2019-11-04': { '900': 7, '1400': 2 } });
  });

  it('never answers a negative number: a full or over-full event has 0 seats', () => {
    const events = [event('2019-11-04T09:00:00Z', 10), event('2019-11-04T14:00:00Z', 12, 8)];
    expect(availability(input(), events)).toEqual({ '2019-11-04': { '900': 0, '1400': 0 } });
  });

  it('answers null (unlimited) for an unlimited experience or event', () => {
    expect(availability(input({ outingMax: null }), [])).toEqual({
      '2019-11-04': { '900': null, '1400': null },
    });
    const events = [event('2019-11-04T09:00:00Z', 25, null), event('2019-11-04T14:00:00Z', 1, 5)];
    expect(availability(input({ outingMax: 10 }), events)).toEqual({
      '2019-11-04': { '900': null, '1400': 4 },
    });
    expect(availability(input({ outingMax: null }), events)).toEqual({
      '2019-11-04': { '900': null, '1400': 4 },
    });
  });

  it('answers 0 for an experience with outingMax 0', () => {
    expect(availability(input({ outingMax: 0 }), [])).toEqual({
      '2019-11-04': { '900': 0, '1400': 0 },
    });
  });

  it('matches events by their instant in the experience time zone', () => {
    // 09:00 in Paris in November is 08:00Z; an event at 09:00Z is another departure.
    const events = [event('2019-11-04T08:00:00Z', 4), event('2019-11-04T09:00:00Z', 9)];
    expect(availability(input({ timezone: 'Europe/Paris' }), events)).toEqual({
      '2019-11-04': { '900': 6, '1400': 10 },
    });
    expect(
      availability(input({ timezone: 'Asia/Kolkata' }), [event('2019-11-04T03:30:00Z', 1)]),
    ).toEqual({ '2019-11-04': { '900': 9, '1400': 10 } });
  });

  it('ignores events that are not departures of the range', () => {
    const events = [event('2019-11-04T10:00:00Z', 5), event('2019-11-05T09:00:00Z', 5)];
    expect(availability(input(), events)).toEqual({ '2019-11-04': { '900': 10, '1400': 10 } });
  });

  it('skips a departure that does not exist on a spring-forward day', () => {
    const schedules: ScheduleInput[] = [
      { type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: [130, 230, 330] },
    ];
    const paris = input({
      schedules,
      timezone: 'Europe/Paris',
      start: '2019-03-30',
      end: '2019-04-01',
    });
    expect(availability(paris, [])).toEqual({
      '2019-03-30': { '130': 10, '230': 10, '330': 10 },
      '2019-03-31': { '130': 10, '330': 10 },
      '2019-04-01': { '130': 10, '230': 10, '330': 10 },
    });
    // The same times exist in UTC.
    expect(availability({ ...paris, timezone: 'UTC' }, [])['2019-03-31']).toEqual({
      '130': 10,
      '230': 10,
      '330': 10,
    });
  });

  it('keeps the ambiguous departure of a fall-back day once, at its later instant', () => {
    const schedules: ScheduleInput[] = [
      { type: 'available', repeat: 'custom', dates: ['2019-10-27'], times: [230] },
    ];
    const paris = input({
      schedules,
      timezone: 'Europe/Paris',
      start: '2019-10-27',
      end: '2019-10-27',
    });
    expect(availability(paris, [event('2019-10-27T01:30:00Z', 3)])).toEqual({
      '2019-10-27': { '230': 7 },
    });
  });

  it('follows unavailable schedules', () => {
    const schedules: ScheduleInput[] = [
      weekdays,
      { type: 'unavailable', repeat: 'custom', dates: ['2019-11-05'] },
      { type: 'unavailable', repeat: 'weekly', days: [3], times: [1400] },
    ];
    expect(availability(input({ schedules, end: '2019-11-06' }), [])).toEqual({
      '2019-11-04': { '900': 10, '1400': 10 },
      '2019-11-05': {},
      '2019-11-06': { '900': 10 },
    });
  });

  it('answers every date empty for an experience without schedules', () => {
    expect(availability(input({ schedules: [], end: '2019-11-06' }), [])).toEqual({
      '2019-11-04': {},
      '2019-11-05': {},
      '2019-11-06': {},
    });
  });

  it('keeps dates in order and lists each time once', () => {
    const result = availability(
      input({
        schedules: [{ type: 'available', repeat: 'weekly', days: [1, 2], times: [1700, 5, 1200] }],
        end: '2019-11-05',
      }),
      [],
    );
    expect(Object.keys(result)).toEqual(['2019-11-04', '2019-11-05']);
    // Unpadded keys are integer-like: a JavaScript object keeps them in time order,
    // whatever the order of the schedule's times.
    expect(Object.keys(result['2019-11-04']!)).toEqual(['5', '1200', '1700']);
  });
});

describe('departureInstants', () => {
  it('lists every departure of the range as an instant, skipping nonexistent ones', () => {
    const schedules: ScheduleInput[] = [
      { type: 'available', repeat: 'weekly', days: [0, 6], times: [230, 1000] },
    ];
    const instants = departureInstants(
      input({ schedules, timezone: 'Europe/Paris', start: '2019-03-30', end: '2019-04-01' }),
    );
    expect(instants.map((d) => d.toISOString())).toEqual([
      '2019-03-30T01:30:00.000Z',
      '2019-03-30T09:00:00.000Z',
      // 2019-03-31 02:30 does not exist.
      '2019-03-31T08:00:00.000Z',
    ]);
  });

  it('is empty without departures', () => {
    expect(departureInstants(input({ schedules: [] }))).toEqual([]);
    expect(departureInstants(input({ start: '2019-11-09', end: '2019-11-10' }))).toEqual([]);
  });
});
