import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  isGuideAvailable,
  localSegments,
  unavailability,
  type EventInterval,
} from '../../../src/modules/guides/guide-availability.js';
import {
  addDays,
  type ScheduleInput,
  type TimeRange,
} from '../../../src/modules/schedules/schedule.rules.js';

const MONDAY = '2019-11-04';
const FRIDAY = '2019-11-08';
const SATURDAY = '2019-11-09';
const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];

const event = (start: string, end: string, timezone = 'UTC'): EventInterval => ({
  start: new Date(start),
  end: new Date(end),
  timezone,
});
const ranges = (list: [number, number][]) =>
  list.map(([startTime, endTime]) => ({ startTime, endTime }));
/** An available weekly schedule; no ranges given means all day. */
const weekly = (
  days: number[],
  list?: [number, number][],
  more: Partial<ScheduleInput> = {},
): ScheduleInput => ({
  type: 'available',
  repeat: 'weekly',
  days,
  ...(list ? { timeRanges: ranges(list) } : {}),
  ...more,
});
const onDates = (
  dates: string[],
  list?: [number, number][],
  more: Partial<ScheduleInput> = {},
): ScheduleInput => ({
  type: 'available',
  repeat: 'custom',
  dates,
  ...(list ? { timeRanges: ranges(list) } : {}),
  ...more,
});
const off = (schedule: ScheduleInput): ScheduleInput => ({ ...schedule, type: 'unavailable' });

describe('localSegments', () => {
  it('gives one segment for an event within a local day', () => {
    expect(localSegments(event(`${MONDAY}T09:00Z`, `${MONDAY}T10:30Z`))).toEqual([
      { date: MONDAY, from: 540, to: 630 },
    ]);
  });

  it('reads the wall clock of the event zone, not UTC', () => {
    // 09:00 in Paris in November is 08:00Z; 23:30Z is already the next day in Kolkata.
    expect(localSegments(event(`${MONDAY}T08:00Z`, `${MONDAY}T09:00Z`, 'Europe/Paris'))).toEqual([
      { date: MONDAY, from: 540, to: 600 },
    ]);
    expect(localSegments(event(`${MONDAY}T23:30Z`, '2019-11-05T00:30Z', 'Asia/Kolkata'))).toEqual([
      { date: '2019-11-05', from: 300, to: 360 },
    ]);
    expect(
      localSegments(event('2019-11-05T02:00Z', '2019-11-05T03:00Z', 'America/New_York')),
    ).toEqual([{ date: MONDAY, from: 1260, to: 1320 }]);
  });

  it('splits an event crossing local midnight into one segment per date', () => {
    expect(
      localSegments(event(`${FRIDAY}T22:00+01:00`, `${SATURDAY}T01:00+01:00`, 'Europe/Paris')),
    ).toEqual([
      { date: FRIDAY, from: 1320, to: 1440 },
      { date: SATURDAY, from: 0, to: 60 },
    ]);
  });

  it('gives the middle dates of a multi-day event whole (0..1440)', () => {
    expect(localSegments(event(`${MONDAY}T22:00Z`, '2019-11-07T03:15Z'))).toEqual([
      { date: MONDAY, from: 1320, to: 1440 },
      { date: '2019-11-05', from: 0, to: 1440 },
      { date: '2019-11-06', from: 0, to: 1440 },
      { date: '2019-11-07', from: 0, to: 195 },
    ]);
  });

  it('ends an event at local midnight at 1440 of its date, with no empty next segment', () => {
    expect(localSegments(event(`${MONDAY}T22:00Z`, '2019-11-05T00:00Z'))).toEqual([
      { date: MONDAY, from: 1320, to: 1440 },
    ]);
    expect(localSegments(event(`${MONDAY}T00:00Z`, '2019-11-05T00:00Z'))).toEqual([
      { date: MONDAY, from: 0, to: 1440 },
    ]);
    expect(localSegments(event(`${MONDAY}T22:00Z`, '2019-11-06T00:00Z'))).toEqual([
      { date: MONDAY, from: 1320, to: 1440 },
      { date: '2019-11-05', from: 0, to: 1440 },
    ]);
    // UTC midnight is not local midnight: in Kolkata this one runs to 05:30 the next day.
    expect(localSegments(event(`${MONDAY}T22:00Z`, '2019-11-05T00:00Z', 'Asia/Kolkata'))).toEqual([
      { date: '2019-11-05', from: 210, to: 330 },
    ]);
  });

  it('starts an event at local midnight at 0 of its date', () => {
    expect(
      localSegments(event('2019-11-05T00:00+05:30', '2019-11-05T01:00+05:30', 'Asia/Kolkata')),
    ).toEqual([{ date: '2019-11-05', from: 0, to: 60 }]);
  });

  it('gives a zero-length event one point segment', () => {
    expect(localSegments(event(`${MONDAY}T09:00Z`, `${MONDAY}T09:00Z`))).toEqual([
      { date: MONDAY, from: 540, to: 540 },
    ]);
    // A point at midnight belongs to the date it opens.
    expect(localSegments(event('2019-11-05T00:00Z', '2019-11-05T00:00Z'))).toEqual([
      { date: '2019-11-05', from: 0, to: 0 },
    ]);
  });

  it('widens seconds to whole minutes (start down, end up)', () => {
    expect(localSegments(event(`${MONDAY}T09:00:30Z`, `${MONDAY}T10:00:00.001Z`))).toEqual([
      { date: MONDAY, from: 540, to: 601 },
    ]);
    expect(localSegments(event(`${MONDAY}T09:00:30Z`, `${MONDAY}T09:00:30Z`))).toEqual([
      { date: MONDAY, from: 540, to: 541 },
    ]);
  });

  describe('Europe/Paris spring-forward day, 2019-03-31 (02:00 +01:00 -> 03:00 +02:00)', () => {
    const paris = (start: string, end: string) => localSegments(event(start, end, 'Europe/Paris'));

    it('spans the skipped hour: 01:30 +01:00 plus 90 minutes ends at 04:00, so 90..240', () => {
      const start = new Date('2019-03-31T01:30+01:00');
      const end = new Date(start.getTime() + 90 * 60_000);
      expect(end.toISOString()).toBe('2019-03-31T02:00:00.000Z'); // 04:00 +02:00
      expect(localSegments({ start, end, timezone: 'Europe/Paris' })).toEqual([
        { date: '2019-03-31', from: 90, to: 240 },
      ]);
    });

    it('ends an event at the instant of the change at the clock it showed (02:00)', () => {
      expect(paris('2019-03-31T01:00+01:00', '2019-03-31T02:00+01:00')).toEqual([
        { date: '2019-03-31', from: 60, to: 120 },
      ]);
    });

    it('starts an event at the instant of the change at 03:00', () => {
      expect(paris('2019-03-31T03:00+02:00', '2019-03-31T04:00+02:00')).toEqual([
        { date: '2019-03-31', from: 180, to: 240 },
      ]);
    });
  });

  describe('Europe/Paris fall-back day, 2019-10-27 (03:00 +02:00 -> 02:00 +01:00)', () => {
    const paris = (start: string, end: string) => localSegments(event(start, end, 'Europe/Paris'));

    it('spans the earliest to latest clock: 01:30 +02:00 to 02:30 +01:00 is 90..180', () => {
      // The event went through 02:59 +02:00 before the clocks went back.
      expect(paris('2019-10-27T01:30+02:00', '2019-10-27T02:30+01:00')).toEqual([
        { date: '2019-10-27', from: 90, to: 180 },
      ]);
    });

    it('reads either pass of the repeated hour as 02:00..02:59', () => {
      expect(paris('2019-10-27T02:00+01:00', '2019-10-27T02:30+01:00')).toEqual([
        { date: '2019-10-27', from: 120, to: 150 },
      ]);
      expect(paris('2019-10-27T02:00+02:00', '2019-10-27T02:45+02:00')).toEqual([
        { date: '2019-10-27', from: 120, to: 165 },
      ]);
    });

    it('covers the repeated hour when the event ends earlier on the clock than it started', () => {
      // 45 minutes: 02:30 +02:00 .. 03:00 +02:00 = 02:00 +01:00 .. 02:15 +01:00.
      expect(paris('2019-10-27T02:30+02:00', '2019-10-27T02:15+01:00')).toEqual([
        { date: '2019-10-27', from: 120, to: 180 },
      ]);
    });
  });

  it('handles a half-hour daylight-saving change (Australia/Lord_Howe, 2019-04-07)', () => {
    // 02:00 +11:00 -> 01:30 +10:30: 01:15 .. 01:45 the second time is 75..120.
    expect(
      localSegments(
        event('2019-04-07T01:15+11:00', '2019-04-07T01:45+10:30', 'Australia/Lord_Howe'),
      ),
    ).toEqual([{ date: '2019-04-07', from: 75, to: 120 }]);
  });

  it('handles changes at midnight (America/Sao_Paulo)', () => {
    // 2018-11-04 had no 00:00..00:59; on 2019-02-17 at 00:00 the clocks went back to 23:00.
    expect(
      localSegments(event('2018-11-03T23:00-03:00', '2018-11-04T02:00-02:00', 'America/Sao_Paulo')),
    ).toEqual([
      { date: '2018-11-03', from: 1380, to: 1440 },
      { date: '2018-11-04', from: 60, to: 120 },
    ]);
    expect(
      localSegments(event('2019-02-16T22:30-02:00', '2019-02-17T00:30-03:00', 'America/Sao_Paulo')),
    ).toEqual([
      { date: '2019-02-16', from: 1350, to: 1440 },
      { date: '2019-02-17', from: 0, to: 30 },
    ]);
  });

  it('touches no date a zone skipped (Pacific/Apia had no 2011-12-30)', () => {
    expect(
      localSegments(event('2011-12-29T22:00-10:00', '2011-12-31T02:00+14:00', 'Pacific/Apia')),
    ).toEqual([
      { date: '2011-12-29', from: 1320, to: 1440 },
      { date: '2011-12-31', from: 0, to: 120 },
    ]);
  });

  it('refuses an unknown zone, an invalid date and an end before the start', () => {
    expect(() =>
      localSegments(event(`${MONDAY}T09:00Z`, `${MONDAY}T10:00Z`, 'Mars/Olympus')),
    ).toThrow(RangeError);
    expect(() => localSegments(event('nonsense', `${MONDAY}T10:00Z`))).toThrow(RangeError);
    expect(() => localSegments(event(`${MONDAY}T10:00Z`, `${MONDAY}T09:59Z`))).toThrow(RangeError);
    expect(() =>
      unavailability([weekly(EVERY_DAY)], event(`${MONDAY}T10:00Z`, `${MONDAY}T09:00Z`)),
    ).toThrow(RangeError);
  });
});

describe('unavailability', () => {
  const morning = event(`${MONDAY}T09:00Z`, `${MONDAY}T10:30Z`);

  it('refuses a guide with no schedule', () => {
    expect(unavailability([], morning)).toBe('the guide has no schedule');
    expect(isGuideAvailable([], morning)).toBe(false);
  });

  it('refuses a guide with only unavailable schedules', () => {
    const schedules = [off(weekly([2])), off(onDates(['2019-12-25']))];
    expect(unavailability(schedules, morning)).toBe('the guide has no available schedule');
  });

  it('accepts an event inside a range of an available schedule of that weekday', () => {
    const schedules = [weekly([1, 3], [[800, 1200]])];
    expect(unavailability(schedules, morning)).toBeUndefined();
    expect(isGuideAvailable(schedules, morning)).toBe(true);
  });

  it('refuses a day no available schedule applies, naming the local date and times', () => {
    const tuesday = event('2019-11-05T09:00Z', '2019-11-05T10:30Z');
    expect(unavailability([weekly([1, 3], [[800, 1200]])], tuesday)).toBe(
      'no available schedule covers the event on 2019-11-05 09:00-10:30 (UTC)',
    );
  });

  it('applies the schedule by the local weekday of the event', () => {
    // Monday 23:30Z is Tuesday 05:00 in Kolkata.
    const lateMonday = event(`${MONDAY}T23:30Z`, '2019-11-05T00:30Z', 'Asia/Kolkata');
    expect(isGuideAvailable([weekly([1])], lateMonday)).toBe(false);
    expect(isGuideAvailable([weekly([2], [[500, 600]])], lateMonday)).toBe(true);
  });

  it('treats missing and empty timeRanges as all day', () => {
    const lateEvening = event(`${MONDAY}T20:00Z`, '2019-11-05T00:00Z');
    for (const schedule of [weekly([1]), weekly([1], [])]) {
      expect(isGuideAvailable([schedule], morning)).toBe(true);
      expect(isGuideAvailable([schedule], lateEvening)).toBe(true);
    }
  });

  it('reads ranges as half-open: ending at the end is covered, starting at it is not', () => {
    const schedules = [weekly([1], [[900, 1030]])];
    expect(isGuideAvailable(schedules, event(`${MONDAY}T09:00Z`, `${MONDAY}T10:30Z`))).toBe(true);
    expect(isGuideAvailable(schedules, event(`${MONDAY}T08:59Z`, `${MONDAY}T10:00Z`))).toBe(false);
    expect(isGuideAvailable(schedules, event(`${MONDAY}T09:30Z`, `${MONDAY}T10:31Z`))).toBe(false);
    expect(isGuideAvailable(schedules, event(`${MONDAY}T10:30Z`, `${MONDAY}T11:00Z`))).toBe(false);
    // Seconds count: one second past the range's end is past it.
    expect(isGuideAvailable(schedules, event(`${MONDAY}T09:00Z`, `${MONDAY}T10:30:01Z`))).toBe(
      false,
    );
  });

  it('needs the whole event inside the ranges, any of them', () => {
    const schedules = [
      weekly(
        [1],
        [
          [800, 1000],
          [1400, 1800],
        ],
      ),
    ];
    expect(isGuideAvailable(schedules, event(`${MONDAY}T15:00Z`, `${MONDAY}T17:00Z`))).toBe(true);
    expect(isGuideAvailable(schedules, event(`${MONDAY}T09:00Z`, `${MONDAY}T15:00Z`))).toBe(false);
    expect(isGuideAvailable(schedules, event(`${MONDAY}T12:00Z`, `${MONDAY}T13:00Z`))).toBe(false);
  });

  it('joins ranges that touch or overlap, within a schedule and across schedules', () => {
    const across = event(`${MONDAY}T11:00Z`, `${MONDAY}T13:00Z`);
    expect(
      isGuideAvailable(
        [
          weekly(
            [1],
            [
              [900, 1200],
              [1200, 1500],
            ],
          ),
        ],
        across,
      ),
    ).toBe(true);
    expect(
      isGuideAvailable(
        [
          weekly(
            [1],
            [
              [1200, 1500],
              [900, 1200],
            ],
          ),
        ],
        across,
      ),
    ).toBe(true);
    expect(
      isGuideAvailable([weekly([1], [[900, 1200]]), onDates([MONDAY], [[1200, 1500]])], across),
    ).toBe(true);
    expect(
      isGuideAvailable(
        [
          weekly(
            [1],
            [
              [900, 1230],
              [1130, 1500],
            ],
          ),
        ],
        across,
      ),
    ).toBe(true);
    // Three blocks chained, the middle one inside neither neighbour.
    const long = event(`${MONDAY}T08:00Z`, `${MONDAY}T17:00Z`);
    expect(
      isGuideAvailable(
        [
          weekly(
            [1],
            [
              [1600, 1800],
              [800, 1100],
              [1100, 1600],
            ],
          ),
        ],
        long,
      ),
    ).toBe(true);
    // A one-minute gap is a gap.
    expect(
      isGuideAvailable(
        [
          weekly(
            [1],
            [
              [900, 1159],
              [1200, 1500],
            ],
          ),
        ],
        across,
      ),
    ).toBe(false);
    // A block on another date does not join.
    expect(
      isGuideAvailable(
        [weekly([1], [[900, 1200]]), onDates(['2019-11-05'], [[1200, 1500]])],
        across,
      ),
    ).toBe(false);
  });

  describe('midnight and 2400', () => {
    const toMidnight = event(`${FRIDAY}T22:00Z`, `${SATURDAY}T00:00Z`);
    const overnight = event(`${FRIDAY}T23:00Z`, `${SATURDAY}T01:00Z`);

    it('lets a range ending at 2400 cover an event ending at midnight', () => {
      expect(isGuideAvailable([weekly([5], [[2200, 2400]])], toMidnight)).toBe(true);
      expect(isGuideAvailable([weekly([5], [[0, 2400]])], toMidnight)).toBe(true);
      expect(isGuideAvailable([weekly([5])], toMidnight)).toBe(true);
    });

    it('does not let 2359 cover the last minute before midnight', () => {
      expect(unavailability([weekly([5], [[2200, 2359]])], toMidnight)).toBe(
        'no available schedule covers the event on 2019-11-08 22:00-24:00 (UTC)',
      );
    });

    it('covers a night with Friday evening and Saturday early-morning schedules', () => {
      const friday = weekly([5], [[1800, 2400]], { name: 'Friday evening' });
      const saturday = weekly([6], [[0, 200]], { name: 'Saturday early' });
      expect(isGuideAvailable([friday, saturday], overnight)).toBe(true);
      expect(isGuideAvailable([saturday, friday], overnight)).toBe(true);
      expect(unavailability([friday], overnight)).toBe(
        'no available schedule covers the event on 2019-11-09 00:00-01:00 (UTC)',
      );
      expect(unavailability([saturday], overnight)).toBe(
        'no available schedule covers the event on 2019-11-08 23:00-24:00 (UTC)',
      );
      // Friday ending at 23:59 leaves the last minute uncovered.
      expect(isGuideAvailable([weekly([5], [[1800, 2359]]), saturday], overnight)).toBe(false);
    });

    it('also joins a night in one weekly schedule applying both days', () => {
      expect(
        isGuideAvailable(
          [
            weekly(
              [5, 6],
              [
                [0, 200],
                [2200, 2400],
              ],
            ),
          ],
          overnight,
        ),
      ).toBe(true);
    });

    it('needs whole days in the middle of a multi-day event', () => {
      const threeDays = event(`${FRIDAY}T20:00Z`, '2019-11-10T02:00Z'); // Fri 20:00 .. Sun 02:00
      const evenings = weekly([5, 6], [[1800, 2400]]);
      const mornings = weekly([0, 6], [[0, 600]]);
      expect(isGuideAvailable([evenings, mornings], threeDays)).toBe(false);
      expect(unavailability([evenings, mornings], threeDays)).toBe(
        'no available schedule covers the event on 2019-11-09 00:00-24:00 (UTC)',
      );
      expect(isGuideAvailable([evenings, mornings, onDates([SATURDAY])], threeDays)).toBe(true);
      expect(isGuideAvailable([weekly([5, 0], [[0, 2400]]), weekly([6])], threeDays)).toBe(true);
    });
  });

  describe('unavailable schedules', () => {
    const open = weekly(EVERY_DAY);

    it('blocks the whole day when it lists no ranges', () => {
      for (const timeRanges of [undefined, []]) {
        const closed: ScheduleInput = {
          type: 'unavailable',
          repeat: 'weekly',
          days: [1],
          timeRanges,
        };
        expect(isGuideAvailable([open, closed], morning)).toBe(false);
        expect(
          isGuideAvailable([open, closed], event('2019-11-05T09:00Z', '2019-11-05T10:00Z')),
        ).toBe(true);
      }
    });

    it('blocks when a range shares a minute with the event, not when it only touches', () => {
      const at = (startTime: number, endTime: number) =>
        isGuideAvailable([open, off(weekly([1], [[startTime, endTime]]))], morning); // 09:00-10:30
      expect(at(800, 900)).toBe(true);
      expect(at(1030, 1200)).toBe(true);
      expect(at(800, 901)).toBe(false);
      expect(at(1029, 1200)).toBe(false);
      expect(at(930, 1000)).toBe(false);
      expect(at(800, 1200)).toBe(false);
      expect(at(1200, 1300)).toBe(true);
    });

    it('blocks only on the dates it applies', () => {
      const closed = off(onDates(['2019-11-05']));
      expect(isGuideAvailable([open, closed], morning)).toBe(true);
      expect(isGuideAvailable([open, off(weekly([2, 3]))], morning)).toBe(true);
    });

    it('blocks one date of an event crossing midnight', () => {
      const overnight = event(`${FRIDAY}T23:00Z`, `${SATURDAY}T01:00Z`);
      expect(isGuideAvailable([open, off(weekly([6], [[100, 300]]))], overnight)).toBe(true);
      expect(isGuideAvailable([open, off(weekly([6], [[59, 300]]))], overnight)).toBe(false);
      expect(isGuideAvailable([open, off(weekly([5], [[2200, 2300]]))], overnight)).toBe(true);
      expect(isGuideAvailable([open, off(weekly([5], [[2359, 2400]]))], overnight)).toBe(false);
      expect(isGuideAvailable([open, off(weekly([4], [[2300, 2400]]))], overnight)).toBe(true);
    });

    it('wins whatever the order of schedules', () => {
      const closed = off(weekly([1], [[1000, 1100]]));
      expect(isGuideAvailable([open, closed], morning)).toBe(false);
      expect(isGuideAvailable([closed, open], morning)).toBe(false);
    });

    it('names the blocking schedule by name and id, when it has them', () => {
      const blocked = (more: Partial<ScheduleInput>) =>
        unavailability([open, off(weekly([1], [[1000, 1100]], more))], morning);
      expect(blocked({ id: 'sch_1', name: 'Dentist' })).toBe(
        'unavailable schedule "Dentist" (sch_1) overlaps the event on 2019-11-04 09:00-10:30 (UTC)',
      );
      expect(blocked({ name: 'Dentist' })).toBe(
        'unavailable schedule "Dentist" overlaps the event on 2019-11-04 09:00-10:30 (UTC)',
      );
      expect(blocked({ id: 'sch_1' })).toBe(
        'unavailable schedule sch_1 overlaps the event on 2019-11-04 09:00-10:30 (UTC)',
      );
      expect(blocked({})).toBe(
        'an unavailable schedule overlaps the event on 2019-11-04 09:00-10:30 (UTC)',
      );
    });
  });

  describe('start and end of schedules (inclusive dates)', () => {
    const ranged = weekly(EVERY_DAY, [[800, 1800]], { start: '2019-11-04', end: '2019-11-10' });
    const day = (date: string) => event(`${date}T09:00Z`, `${date}T10:00Z`);

    it('applies an available schedule from its start date to its end date', () => {
      expect(isGuideAvailable([ranged], day('2019-11-03'))).toBe(false);
      expect(isGuideAvailable([ranged], day('2019-11-04'))).toBe(true);
      expect(isGuideAvailable([ranged], day('2019-11-07'))).toBe(true);
      expect(isGuideAvailable([ranged], day('2019-11-10'))).toBe(true);
      expect(unavailability([ranged], day('2019-11-11'))).toBe(
        'no available schedule covers the event on 2019-11-11 09:00-10:00 (UTC)',
      );
    });

    it('refuses an event crossing from the end date into the day after', () => {
      const all = weekly(EVERY_DAY, undefined, { start: '2019-11-04', end: '2019-11-10' });
      expect(isGuideAvailable([all], event('2019-11-10T23:00Z', '2019-11-11T00:00Z'))).toBe(true);
      expect(isGuideAvailable([all], event('2019-11-10T23:00Z', '2019-11-11T00:01Z'))).toBe(false);
    });

    it('applies an unavailable schedule from its start date to its end date', () => {
      const holiday = off(weekly(EVERY_DAY, undefined, { start: '2019-11-05', end: '2019-11-06' }));
      const open = weekly(EVERY_DAY);
      expect(isGuideAvailable([open, holiday], day('2019-11-04'))).toBe(true);
      expect(isGuideAvailable([open, holiday], day('2019-11-05'))).toBe(false);
      expect(isGuideAvailable([open, holiday], day('2019-11-06'))).toBe(false);
      expect(isGuideAvailable([open, holiday], day('2019-11-07'))).toBe(true);
    });

    it('follows the listed dates of custom schedules', () => {
      const custom = onDates(['2019-12-24', '2019-12-26'], [[1000, 1600]]);
      expect(isGuideAvailable([custom], event('2019-12-24T11:00Z', '2019-12-24T12:00Z'))).toBe(
        true,
      );
      expect(isGuideAvailable([custom], event('2019-12-25T11:00Z', '2019-12-25T12:00Z'))).toBe(
        false,
      );
      expect(isGuideAvailable([custom], event('2019-12-26T11:00Z', '2019-12-26T12:00Z'))).toBe(
        true,
      );
    });
  });

  describe('zero-length events: an instant', () => {
    const point = (hhmm: string) => event(`${MONDAY}T${hhmm}Z`, `${MONDAY}T${hhmm}Z`);

    it('is covered from a range start up to, not at, its end', () => {
      const schedules = [weekly([1], [[900, 1000]])];
      expect(isGuideAvailable(schedules, point('08:59'))).toBe(false);
      expect(isGuideAvailable(schedules, point('09:00'))).toBe(true);
      expect(isGuideAvailable(schedules, point('09:59'))).toBe(true);
      expect(unavailability(schedules, point('10:00'))).toBe(
        'no available schedule covers the event on 2019-11-04 at 10:00 (UTC)',
      );
    });

    it('is blocked inside an unavailable range, its start included, its end not', () => {
      const open = weekly([1]);
      const closed = off(weekly([1], [[900, 1000]]));
      expect(isGuideAvailable([open, closed], point('08:59'))).toBe(true);
      expect(isGuideAvailable([open, closed], point('09:00'))).toBe(false);
      expect(isGuideAvailable([open, closed], point('10:00'))).toBe(true);
      expect(isGuideAvailable([open, off(weekly([1]))], point('10:00'))).toBe(false);
    });

    it('is at 0 of the next date at midnight', () => {
      const midnight = event('2019-11-05T00:00Z', '2019-11-05T00:00Z');
      expect(isGuideAvailable([weekly([1], [[2300, 2400]])], midnight)).toBe(false);
      expect(isGuideAvailable([weekly([2], [[0, 100]])], midnight)).toBe(true);
    });
  });

  describe('daylight-saving days in Europe/Paris', () => {
    const paris = (start: string, end: string) => event(start, end, 'Europe/Paris');

    it('2019-03-31: an event from 01:30 (+01:00) for 90 minutes needs 01:30..04:00', () => {
      const spring = paris('2019-03-31T01:30+01:00', '2019-03-31T04:00+02:00');
      expect(isGuideAvailable([onDates(['2019-03-31'], [[100, 400]])], spring)).toBe(true);
      expect(unavailability([onDates(['2019-03-31'], [[100, 330]])], spring)).toBe(
        'no available schedule covers the event on 2019-03-31 03:00-04:00 (Europe/Paris)',
      );
      // The skipped hour is no time at all: the guide need not cover it, nor can it block.
      const aroundTheGap = onDates(
        ['2019-03-31'],
        [
          [100, 200],
          [300, 400],
        ],
      );
      expect(isGuideAvailable([aroundTheGap], spring)).toBe(true);
      const inTheGap = off(onDates(['2019-03-31'], [[200, 300]]));
      expect(isGuideAvailable([weekly(EVERY_DAY), inTheGap], spring)).toBe(true);
    });

    it('2019-10-27: an event 01:30 (+02:00) to 02:30 (+01:00) needs 01:30..03:00', () => {
      const fall = paris('2019-10-27T01:30+02:00', '2019-10-27T02:30+01:00');
      expect(isGuideAvailable([onDates(['2019-10-27'], [[100, 300]])], fall)).toBe(true);
      // Its end reads 02:30, but the event went through 02:59 (+02:00) first.
      expect(isGuideAvailable([onDates(['2019-10-27'], [[100, 230]])], fall)).toBe(false);
      const lateNight = off(onDates(['2019-10-27'], [[245, 300]], { name: 'late' }));
      expect(unavailability([weekly(EVERY_DAY), lateNight], fall)).toBe(
        'unavailable schedule "late" overlaps the event on 2019-10-27 01:30-03:00 (Europe/Paris)',
      );
    });

    it('2019-10-27: an event in the second pass of 02:00..03:00 reads that pass only', () => {
      const second = paris('2019-10-27T02:00+01:00', '2019-10-27T02:30+01:00');
      expect(isGuideAvailable([onDates(['2019-10-27'], [[200, 230]])], second)).toBe(true);
      expect(isGuideAvailable([weekly(EVERY_DAY), off(weekly([0], [[230, 300]]))], second)).toBe(
        true,
      );
      // 45 minutes spanning both passes: 02:30..03:00 then 02:00..02:15, not 02:15..02:30.
      const both = paris('2019-10-27T02:30+02:00', '2019-10-27T02:15+01:00');
      expect(isGuideAvailable([weekly(EVERY_DAY), off(weekly([0], [[215, 230]]))], both)).toBe(
        true,
      );
      expect(isGuideAvailable([weekly(EVERY_DAY), off(weekly([0], [[210, 220]]))], both)).toBe(
        false,
      );
      expect(isGuideAvailable([onDates(['2019-10-27'], [[200, 300]])], both)).toBe(true);
      expect(isGuideAvailable([onDates(['2019-10-27'], [[230, 300]])], both)).toBe(false);
    });
  });

  it('finds both daylight-saving changes inside an event of months', () => {
    const season = event('2019-03-01T12:00+01:00', '2019-11-30T12:00+01:00', 'Europe/Paris');
    const segments = localSegments(season);
    expect(segments).toHaveLength(275);
    expect(segments[0]).toEqual({ date: '2019-03-01', from: 720, to: 1440 });
    expect(segments.at(-1)).toEqual({ date: '2019-11-30', from: 0, to: 720 });
    const open = weekly(EVERY_DAY);
    const at = (date: string) => off(onDates([date], [[215, 245]]));
    expect(isGuideAvailable([open, at('2019-03-31')], season)).toBe(true); // skipped
    expect(isGuideAvailable([open, at('2019-10-27')], season)).toBe(false); // lived twice
  });

  it('does not change the schedules or the event it reads', () => {
    const schedules = [
      weekly(
        [1],
        [
          [900, 1200],
          [1200, 1500],
        ],
      ),
      off(weekly([1], [[1400, 1500]])),
    ];
    const ev = event(`${MONDAY}T11:00Z`, `${MONDAY}T13:00Z`);
    const copies = structuredClone({ schedules, ev });
    unavailability(schedules, ev);
    localSegments(ev);
    expect({ schedules, ev }).toEqual(copies);
  });
});

describe('availability properties', () => {
  const MINUTE = 60_000;
  const DAY = 86_400_000;
  const noDst = ['UTC', 'Asia/Kolkata', 'Asia/Kathmandu', 'Asia/Tokyo', 'Etc/GMT+5'];
  const withDst = [
    'Europe/Paris',
    'America/New_York',
    'Australia/Lord_Howe',
    'America/Sao_Paulo',
    'Pacific/Chatham',
  ];
  // Instants of daylight-saving changes, where the interesting events sit.
  const changes = [
    '2019-03-31T01:00Z', // Paris forward
    '2019-10-27T01:00Z', // Paris back
    '2019-03-10T07:00Z', // New York forward
    '2019-11-03T06:00Z', // New York back
    '2019-04-06T15:00Z', // Lord Howe back, by 30 minutes
    '2019-10-05T15:30Z', // Lord Howe forward
    '2018-11-04T03:00Z', // Sao Paulo forward at midnight
    '2019-02-17T02:00Z', // Sao Paulo back at midnight
    '2019-04-06T14:00Z', // Chatham back
  ].map((iso) => Date.parse(iso));
  const anyZone = fc.constantFrom(...noDst, ...withDst);
  /** An instant anywhere in 2000-2040, or within three days of a daylight-saving change. */
  const instant = fc.oneof(
    fc.integer({ min: Date.parse('2000-01-01T00:00Z'), max: Date.parse('2040-01-01T00:00Z') }),
    fc
      .tuple(fc.constantFrom(...changes), fc.integer({ min: -3 * DAY, max: 3 * DAY }))
      .map(([at, shift]) => at + shift),
  );
  const makeEvent = (start: number, duration: number, timezone: string): EventInterval => ({
    start: new Date(start),
    end: new Date(start + duration),
    timezone,
  });

  it('accepts any event under 7 days with an all-day schedule on every weekday', () => {
    const extra = fc.array(
      fc.record({
        days: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1 }),
        startTime: fc.integer({ min: 0, max: 23 }).map((h) => h * 100),
      }),
      { maxLength: 3 },
    );
    fc.assert(
      fc.property(
        instant,
        fc.integer({ min: 0, max: 7 * DAY - 1 }),
        anyZone,
        fc.constantFrom<TimeRange[] | undefined>(undefined, []),
        extra,
        (start, duration, zone, timeRanges, more) => {
          const schedules: ScheduleInput[] = [
            ...more.map(({ days, startTime }) => weekly(days, [[startTime, startTime + 100]])),
            { type: 'available', repeat: 'weekly', days: EVERY_DAY, timeRanges },
          ];
          expect(unavailability(schedules, makeEvent(start, duration, zone))).toBeUndefined();
        },
      ),
    );
  });

  it('refuses such an event once a whole-day unavailable date falls on any date it touches', () => {
    fc.assert(
      fc.property(
        instant,
        fc.integer({ min: 0, max: 7 * DAY - 1 }),
        anyZone,
        fc.nat(),
        fc.boolean(),
        (start, duration, zone, pick, first) => {
          const ev = makeEvent(start, duration, zone);
          const dates = localSegments(ev).map((s) => s.date);
          const date = dates[pick % dates.length]!;
          const closed: ScheduleInput = { type: 'unavailable', repeat: 'custom', dates: [date] };
          const open = weekly(EVERY_DAY);
          const reason = unavailability(first ? [closed, open] : [open, closed], ev);
          expect(reason).toMatch(/^an unavailable schedule overlaps the event on /);
          expect(reason).toContain(date);
        },
      ),
    );
  });

  it('sums segments to the duration, in order, on consecutive dates (zones without DST)', () => {
    fc.assert(
      fc.property(
        fc.integer({
          min: Date.parse('2000-01-01T00:00Z') / MINUTE,
          max: Date.parse('2040-01-01T00:00Z') / MINUTE,
        }),
        fc.oneof(fc.integer({ min: 0, max: 3 * 1440 }), fc.integer({ min: 0, max: 40 * 1440 })),
        fc.constantFrom(...noDst),
        (startMinute, minutes, zone) => {
          const ev = makeEvent(startMinute * MINUTE, minutes * MINUTE, zone);
          const segments = localSegments(ev);
          expect(segments.reduce((sum, s) => sum + (s.to - s.from), 0)).toBe(minutes);
          const local = DateTime.fromJSDate(ev.start, { zone });
          expect(segments[0]).toMatchObject({
            date: local.toISODate(),
            from: local.hour * 60 + local.minute,
          });
          segments.forEach((s, i) => {
            expect(0 <= s.from && s.from <= s.to && s.to <= 1440).toBe(true);
            expect(s.from < s.to || minutes === 0).toBe(true);
            if (i > 0) {
              expect(s.date).toBe(addDays(segments[i - 1]!.date, 1));
              expect(s.from).toBe(0);
            }
            if (i < segments.length - 1) expect(s.to).toBe(1440);
          });
        },
      ),
    );
  });

  it('puts every instant of the event inside the segment of its local date (any zone)', () => {
    fc.assert(
      fc.property(
        instant,
        fc.integer({ min: 1, max: 4 * DAY }),
        anyZone,
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { maxLength: 20 }),
        (start, duration, zone, fractions) => {
          const ev = makeEvent(start, duration, zone);
          const segments = localSegments(ev);
          const byDate = new Map(segments.map((s) => [s.date, s]));
          const instants = [
            start,
            start + duration - 1,
            ...fractions.map((f) => start + Math.floor(f * duration)),
          ];
          for (const at of instants) {
            const local = DateTime.fromMillis(at, { zone });
            const segment = byDate.get(local.toISODate()!);
            expect(segment).toBeDefined();
            const minute = local.hour * 60 + local.minute;
            expect(segment!.from <= minute && minute < segment!.to).toBe(true);
          }
          expect(segments[0]!.date).toBe(DateTime.fromMillis(start, { zone }).toISODate());
          expect(segments.at(-1)!.date).toBe(
            DateTime.fromMillis(start + duration - 1, { zone }).toISODate(),
          );
        },
      ),
    );
  });

  describe('against a minute-by-minute model of the rule', () => {
    // Everything sits on a 15-minute grid (every zone here changes offset on it), so the
    // model need only look at the first minute of each quarter hour of the event.
    const QUARTER = 15 * MINUTE;
    // A zone and an instant near which events are drawn: its daylight-saving changes, or
    // any quarter hour for a zone without them.
    const scenes: [string, string][] = [
      ['Europe/Paris', '2019-03-31T01:00Z'],
      ['Europe/Paris', '2019-10-27T01:00Z'],
      ['America/New_York', '2019-03-10T07:00Z'],
      ['America/New_York', '2019-11-03T06:00Z'],
      ['Australia/Lord_Howe', '2019-04-06T15:00Z'],
      ['Australia/Lord_Howe', '2019-10-05T15:30Z'],
      ['America/Sao_Paulo', '2018-11-04T03:00Z'],
      ['America/Sao_Paulo', '2019-02-17T02:00Z'],
      ['Pacific/Chatham', '2019-04-06T14:00Z'],
      ['UTC', '2019-11-04T00:00Z'],
      ['Asia/Kathmandu', '2019-11-04T00:00Z'],
    ];
    const grid = (q: number) => Math.floor(q / 4) * 100 + (q % 4) * 15;
    // Ranges from sorted cut points, consecutive ones often kept together so that ranges
    // touch; cuts are often on the hour, so ranges of different schedules meet too.
    // `edges` are quarters of the local clock where the event starts and ends and where the
    // clock jumps, so that ranges often meet the event or the jump exactly.
    const someRanges = (edges: number[]) =>
      fc
        .uniqueArray(
          fc.oneof(
            fc.integer({ min: 0, max: 96 }),
            fc.integer({ min: 0, max: 24 }).map((h) => h * 4),
            fc.constantFrom(...edges),
          ),
          { minLength: 2, maxLength: 6 },
        )
        .map((cuts) => cuts.sort((x, y) => x - y))
        .chain((cuts) =>
          fc.subarray(
            cuts.slice(1).map((to, i) => ({ startTime: grid(cuts[i]!), endTime: grid(to) })),
            { minLength: 1 },
          ),
        );
    const schedule = (
      type: ScheduleInput['type'],
      anchor: string,
      edges: number[],
      allDay: number,
    ): fc.Arbitrary<ScheduleInput> => {
      const date = fc.integer({ min: -2, max: 2 }).map((d) => addDays(anchor, d));
      return fc
        .record({
          repeat: fc.constantFrom('weekly' as const, 'custom' as const),
          days: fc.subarray(EVERY_DAY, { minLength: 1 }),
          dates: fc.uniqueArray(date, { minLength: 1, maxLength: 4 }),
          timeRanges: fc.oneof(
            { weight: allDay, arbitrary: fc.constant<TimeRange[]>([]) },
            { weight: 8, arbitrary: someRanges(edges) },
          ),
          start: fc.option(date, { nil: undefined }),
          end: fc.option(date, { nil: undefined }),
        })
        .map(({ repeat, days, dates, start, end, timeRanges }) => ({
          type,
          repeat,
          ...(repeat === 'weekly' ? { days } : { dates }),
          timeRanges,
          ...(start !== undefined ? { start } : {}),
          ...(end !== undefined ? { end } : {}),
        }));
    };
    const appliesModel = (s: ScheduleInput, day: string) =>
      (s.start === undefined || s.start <= day) &&
      (s.end === undefined || day <= s.end) &&
      (s.repeat === 'weekly'
        ? s.days!.includes(new Date(`${day}T00:00:00Z`).getUTCDay())
        : s.dates!.includes(day));
    const holds = (s: ScheduleInput, day: string, minute: number) =>
      appliesModel(s, day) &&
      ((s.timeRanges ?? []).length === 0 ||
        s.timeRanges!.some(
          (r) => hhmmQuarters(r.startTime) * 15 <= minute && minute < hhmmQuarters(r.endTime) * 15,
        ));
    const model = (schedules: readonly ScheduleInput[], ev: EventInterval) => {
      const start = ev.start.getTime();
      const quarters = Math.max(1, (ev.end.getTime() - start) / QUARTER);
      for (let q = 0; q < quarters; q++) {
        const local = DateTime.fromMillis(start + q * QUARTER, { zone: ev.timezone });
        const day = local.toISODate()!;
        const minute = local.hour * 60 + local.minute;
        const at = (type: ScheduleInput['type']) =>
          schedules.some((s) => s.type === type && holds(s, day, minute));
        if (!at('available') || at('unavailable')) return false;
      }
      return true;
    };

    /** An event near a scene's instant, and schedules around it (some unavailable). */
    const situation = (among: [string, string][]) =>
      fc
        .tuple(
          fc.constantFrom(...among),
          fc.oneof(
            fc.constant(0),
            fc.integer({ min: 1, max: 16 }),
            fc.integer({ min: 1, max: 40 * 4 }),
          ),
          // Quarters from the scene's instant to the start; strings place the start or the
          // end exactly on it.
          fc.oneof(
            { weight: 4, arbitrary: fc.integer({ min: -2 * 96, max: 2 * 96 }) },
            { weight: 1, arbitrary: fc.constantFrom('starts' as const, 'ends' as const) },
          ),
        )
        .chain(([[zone, at], quarters, place]) => {
          const shift = place === 'starts' ? 0 : place === 'ends' ? -quarters : place;
          const ev = makeEvent(Date.parse(at) + shift * QUARTER, quarters * QUARTER, zone);
          const start = DateTime.fromJSDate(ev.start, { zone });
          const end = DateTime.fromJSDate(ev.end, { zone });
          const anchor = start.toISODate()!;
          // The clock just before and at the scene's instant: a change's gap or overlap.
          const before = DateTime.fromMillis(Date.parse(at) - QUARTER, { zone });
          const after = DateTime.fromMillis(Date.parse(at), { zone });
          const edges = [start, end, before, after].map((t) => t.hour * 4 + t.minute / 15);
          edges[2]! += 1;
          return fc.tuple(
            fc.constant(ev),
            fc.array(schedule('available', anchor, edges, 2), { minLength: 1, maxLength: 4 }),
            fc.array(schedule('unavailable', anchor, edges, 1), { maxLength: 2 }),
            fc.nat(),
          );
        })
        .map(([ev, available, unavailable, at]) => {
          const schedules = [...available];
          for (const s of unavailable) schedules.splice(at % (schedules.length + 1), 0, s);
          return { ev, schedules };
        });

    it('agrees with the model, whatever the order of schedules', () => {
      let accepted = 0;
      fc.assert(
        fc.property(situation(scenes), ({ ev, schedules }) => {
          const expected = model(schedules, ev);
          if (expected) accepted++;
          expect(isGuideAvailable(schedules, ev)).toBe(expected);
          expect(unavailability(schedules, ev) === undefined).toBe(expected);
          expect(isGuideAvailable([...schedules].reverse(), ev)).toBe(expected);
        }),
        { numRuns: 1000 },
      );
      // The generators must reach both answers for the agreement to mean something.
      expect(accepted).toBeGreaterThan(100);
    });

    it('neither needs nor lets anything block the hour a spring-forward day skips', () => {
      // [zone, instant of the change, local date, skipped hours as HHMM]
      const springs: [string, string, string, number, number][] = [
        ['Europe/Paris', '2019-03-31T01:00Z', '2019-03-31', 200, 300],
        ['America/New_York', '2019-03-10T07:00Z', '2019-03-10', 200, 300],
        ['Australia/Lord_Howe', '2019-10-05T15:30Z', '2019-10-06', 200, 230],
        ['America/Sao_Paulo', '2018-11-04T03:00Z', '2018-11-04', 0, 100],
      ];
      fc.assert(
        fc.property(
          fc.nat({ max: springs.length - 1 }).chain((i) => {
            const [zone, at, date, from, to] = springs[i]!;
            return fc.tuple(situation([[zone, at]]), fc.constant({ date, from, to }));
          }),
          ([{ ev, schedules }, gap]) => {
            const expected = isGuideAvailable(schedules, ev);
            const gapHours = onDates([gap.date], [[gap.from, gap.to]]);
            expect(isGuideAvailable([...schedules, gapHours], ev)).toBe(expected);
            expect(isGuideAvailable([...schedules, off(gapHours)], ev)).toBe(expected);
          },
        ),
        { numRuns: 300 },
      );
    });
  });
});

/** HHMM on the quarter-hour grid to its count of quarter hours (2400 -> 96). */
function hhmmQuarters(hhmm: number): number {
  return Math.floor(hhmm / 100) * 4 + (hhmm % 100) / 15;
}
