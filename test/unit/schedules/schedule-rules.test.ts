import { describe, expect, it } from 'vitest';
import {
  addDays,
  boundDate,
  appliesOn,
  hhmmToMinutes,
  isDate,
  isHhmm,
  normalizeSchedule,
  scheduleErrors,
  weekday,
  type ScheduleInput,
} from '../../../src/modules/schedules/schedule.rules.js';

describe('isHhmm', () => {
  it.each([0, 59, 100, 930, 959, 1200, 2300, 2359])('accepts %d', (value) => {
    expect(isHhmm(value)).toBe(true);
  });

  it.each([60, 99, 160, 960, 2360, 2400, 2459, -1, -100, 1.5, 930.5, NaN, Infinity])(
    'refuses %d',
    (value) => {
      expect(isHhmm(value)).toBe(false);
    },
  );
});

describe('hhmmToMinutes', () => {
  it.each([
    [0, 0],
    [1, 1],
    [59, 59],
    [100, 60],
    [930, 570],
    [959, 599],
    [1000, 600],
    [2359, 1439],
    // Guides' end of day: 2400 is midnight at the end of the day.
    [2400, 1440],
  ])('%d -> %d minutes', (hhmm, minutes) => {
    expect(hhmmToMinutes(hhmm)).toBe(minutes);
  });

  it('is strictly increasing over every valid HHMM', () => {
    const valid = Array.from({ length: 2400 }, (_, i) => i).filter(isHhmm);
    expect(valid).toHaveLength(24 * 60);
    const minutes = valid.map(hhmmToMinutes);
    expect(minutes).toEqual(Array.from({ length: 24 * 60 }, (_, i) => i));
  });
});

describe('isDate', () => {
  it.each(['2020-02-29', '2019-02-28', '2019-12-31', '2019-01-01', '2000-02-29', '2024-04-30'])(
    'accepts %s',
    (value) => {
      expect(isDate(value)).toBe(true);
    },
  );

  it.each([
    '2019-02-29', // not a leap year
    '1900-02-29', // divisible by 100, not by 400
    '2019-02-30',
    '2019-04-31',
    '2019-13-01',
    '2019-00-10',
    '2019-01-00',
    '2019-01-32',
    '2019-1-01',
    '19-01-01',
    '2019/01/01',
    '2019-01-01T00:00:00Z',
    ' 2019-01-01',
    '',
  ])('refuses %s', (value) => {
    expect(isDate(value)).toBe(false);
  });
});

describe('weekday', () => {
  it('counts from 0 = Sunday', () => {
    expect(weekday('2019-11-03')).toBe(0); // Sunday
    expect(weekday('2019-11-04')).toBe(1);
    expect(weekday('2019-11-08')).toBe(5); // Friday
    expect(weekday('2019-11-09')).toBe(6); // Saturday
    expect(weekday('2020-02-29')).toBe(6);
    expect(weekday('2000-01-01')).toBe(6);
  });

  it('agrees with the Date object for a run of days', () => {
    for (let i = 0; i < 400; i++) {
      const date = new Date(Date.UTC(2019, 0, 1 + i));
      expect(weekday(date.toISOString().slice(0, 10))).toBe(date.getUTCDay());
    }
  });
});

describe('addDays', () => {
  it.each([
    ['2019-01-31', 1, '2019-02-01'],
    ['2019-02-28', 1, '2019-03-01'],
    ['2020-02-28', 1, '2020-02-29'],
    ['2020-02-29', 1, '2020-03-01'],
    ['2019-12-31', 1, '2020-01-01'],
    ['2020-01-01', -1, '2019-12-31'],
    ['2019-03-01', -1, '2019-02-28'],
    ['2019-11-08', 0, '2019-11-08'],
    ['2019-11-08', 62, '2020-01-09'],
    ['2019-01-01', 365, '2020-01-01'],
    ['2020-01-01', 366, '2021-01-01'],
  ] as const)('%s plus %i days = %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });

  it('ignores daylight saving (whole calendar days)', () => {
    expect(addDays('2019-03-30', 1)).toBe('2019-03-31');
    expect(addDays('2019-03-31', 1)).toBe('2019-04-01');
    expect(addDays('2019-10-27', 1)).toBe('2019-10-28');
  });
});

describe('appliesOn', () => {
  const weekly: ScheduleInput = { type: 'available', repeat: 'weekly', days: [1, 3], times: [900] };
  const custom: ScheduleInput = {
    type: 'available',
    repeat: 'custom',
    dates: ['2019-11-08', '2019-12-25'],
    times: [900],
  };

  it('applies a weekly schedule on its weekdays only', () => {
    expect(appliesOn(weekly, '2019-11-04')).toBe(true); // Monday
    expect(appliesOn(weekly, '2019-11-06')).toBe(true); // Wednesday
    expect(appliesOn(weekly, '2019-11-05')).toBe(false);
    expect(appliesOn(weekly, '2019-11-03')).toBe(false); // Sunday
  });

  it('applies a Sunday (0) schedule on Sundays', () => {
    expect(appliesOn({ ...weekly, days: [0] }, '2019-11-03')).toBe(true);
    expect(appliesOn({ ...weekly, days: [0] }, '2019-11-09')).toBe(false);
  });

  it('applies a custom schedule on its dates only', () => {
    expect(appliesOn(custom, '2019-11-08')).toBe(true);
    expect(appliesOn(custom, '2019-12-25')).toBe(true);
    expect(appliesOn(custom, '2019-11-09')).toBe(false);
  });

  it('ignores the days of a custom schedule and the dates of a weekly one', () => {
    expect(appliesOn({ ...custom, days: [5] }, '2019-11-15')).toBe(false); // a Friday
    expect(appliesOn({ ...weekly, dates: ['2019-11-05'] }, '2019-11-05')).toBe(false);
  });

  it('applies nowhere without days or dates', () => {
    expect(appliesOn({ type: 'available', repeat: 'weekly' }, '2019-11-04')).toBe(false);
    expect(appliesOn({ type: 'available', repeat: 'custom' }, '2019-11-04')).toBe(false);
  });

  it('honours start and end, both inclusive', () => {
    const bounded = { ...weekly, start: '2019-11-04', end: '2019-11-13' };
    expect(appliesOn(bounded, '2019-10-28')).toBe(false); // a Monday before start
    expect(appliesOn(bounded, '2019-11-04')).toBe(true); // start itself
    expect(appliesOn(bounded, '2019-11-13')).toBe(true); // end itself
    expect(appliesOn(bounded, '2019-11-11')).toBe(true);
    expect(appliesOn(bounded, '2019-11-18')).toBe(false); // a Monday after end
  });

  it('honours one bound alone', () => {
    expect(appliesOn({ ...weekly, start: '2019-11-05' }, '2019-11-04')).toBe(false);
    expect(appliesOn({ ...weekly, start: '2019-11-05' }, '2030-01-07')).toBe(true);
    expect(appliesOn({ ...weekly, end: '2019-11-05' }, '2019-11-04')).toBe(true);
    expect(appliesOn({ ...weekly, end: '2019-11-05' }, '2019-11-06')).toBe(false);
  });

  it('applies a custom date outside start..end on no day', () => {
    expect(appliesOn({ ...custom, start: '2019-12-01' }, '2019-11-08')).toBe(false);
    expect(appliesOn({ ...custom, start: '2019-12-01' }, '2019-12-25')).toBe(true);
    expect(appliesOn({ ...custom, end: '2019-12-24' }, '2019-12-25')).toBe(false);
  });

  it('compares bounds across month and year ends', () => {
    const s = { ...weekly, days: [0, 1, 2, 3, 4, 5, 6], start: '2019-12-31', end: '2020-01-01' };
    expect(appliesOn(s, '2019-12-30')).toBe(false);
    expect(appliesOn(s, '2019-12-31')).toBe(true);
    expect(appliesOn(s, '2020-01-01')).toBe(true);
    expect(appliesOn(s, '2020-01-02')).toBe(false);
  });
});

describe('scheduleErrors', () => {
  const names = (schedule: ScheduleInput, kind: 'experience' | 'guide' = 'experience') =>
    scheduleErrors(schedule, 'schedules.0.', kind).map((e) => e.name);

  const weekly: ScheduleInput = { type: 'available', repeat: 'weekly', days: [1], times: [900] };
  const custom: ScheduleInput = {
    type: 'available',
    repeat: 'custom',
    dates: ['2019-11-08'],
    times: [900],
  };
  const guide: ScheduleInput = {
    type: 'available',
    repeat: 'weekly',
    days: [1],
    timeRanges: [{ startTime: 900, endTime: 1700 }],
  };

  it('accepts well-formed schedules', () => {
    expect(names(weekly)).toEqual([]);
    expect(names(custom)).toEqual([]);
    expect(names({ ...weekly, start: '2019-11-01', end: '2019-11-30' })).toEqual([]);
    expect(names({ ...weekly, start: '2019-11-01', end: '2019-11-01' })).toEqual([]);
    expect(names({ ...weekly, days: [0, 1, 2, 3, 4, 5, 6], times: [0, 2359] })).toEqual([]);
    expect(names(guide, 'guide')).toEqual([]);
    expect(names({ ...guide, timeRanges: [] }, 'guide')).toEqual([]);
    expect(names({ ...guide, timeRanges: undefined }, 'guide')).toEqual([]);
    expect(names({ ...guide, timeRanges: [{ startTime: 0, endTime: 2400 }] }, 'guide')).toEqual([]);
  });

  it('returns field errors in the body, with a detail, under the given path', () => {
    const errors = scheduleErrors({ ...weekly, days: [] }, 'schedules.3.', 'experience');
    expect(errors).toEqual([{ in: 'body', name: 'schedules.3.days', detail: expect.any(String) }]);
    expect(errors[0]!.detail).toMatch(/days/);
    expect(scheduleErrors({ ...weekly, days: [] }, '', 'guide')[0]!.name).toBe('days');
  });

  it('needs days on a weekly schedule', () => {
    expect(names({ ...weekly, days: [] })).toEqual(['schedules.0.days']);
    expect(names({ ...weekly, days: undefined })).toEqual(['schedules.0.days']);
  });

  it('needs dates on a custom schedule', () => {
    expect(names({ ...custom, dates: [] })).toEqual(['schedules.0.dates']);
    expect(names({ ...custom, dates: undefined })).toEqual(['schedules.0.dates']);
  });

  it('refuses dates on a weekly schedule and days on a custom one', () => {
    expect(names({ ...weekly, dates: ['2019-11-08'] })).toEqual(['schedules.0.dates']);
    expect(names({ ...weekly, dates: [] })).toEqual(['schedules.0.dates']);
    expect(names({ ...custom, days: [5] })).toEqual(['schedules.0.days']);
    expect(names({ ...custom, days: [] })).toEqual(['schedules.0.days']);
  });

  it('refuses dates that are not real, naming each', () => {
    expect(
      names({ ...custom, dates: ['2019-11-08', '2019-02-29', '2019-02-30', '2019-13-01'] }),
    ).toEqual(['schedules.0.dates.1', 'schedules.0.dates.2', 'schedules.0.dates.3']);
    expect(names({ ...custom, dates: ['2020-02-29'] })).toEqual([]);
  });

  it('refuses start and end that are not real dates', () => {
    expect(names({ ...weekly, start: '2019-02-29' })).toEqual(['schedules.0.start']);
    expect(names({ ...weekly, end: '2019-13-01' })).toEqual(['schedules.0.end']);
    expect(names({ ...weekly, start: 'soon', end: 'later' })).toEqual([
      'schedules.0.start',
      'schedules.0.end',
    ]);
  });

  it('takes ISO date-times as bounds, by the date as written', () => {
    expect(
      names({ ...weekly, start: '2019-11-08T00:00:00+01:00', end: '2019-11-30T23:59:59Z' }),
    ).toEqual([]);
    expect(names({ ...weekly, start: '2019-11-08T10:00:00Z', end: '2019-11-07' })).toEqual([
      'schedules.0.end',
    ]);
    expect(names({ ...weekly, start: '2019-02-29T00:00:00Z' })).toEqual(['schedules.0.start']);
    expect(normalizeSchedule({ ...weekly, start: '2019-11-08T23:00:00-05:00' }).start).toBe(
      '2019-11-08',
    );
    expect(boundDate('2019-11-08')).toBe('2019-11-08');
  });

  it('keeps departure and priceDelta to experience schedules, priceDelta to available ones', () => {
    expect(names({ ...weekly, departure: 'varies', priceDelta: -5 })).toEqual([]);
    expect(names({ ...weekly, type: 'blackout', times: [], priceDelta: 5 })).toEqual([
      'schedules.0.priceDelta',
    ]);
    expect(names({ ...guide, departure: 'fixed', priceDelta: 1 }, 'guide')).toEqual([
      'schedules.0.departure',
      'schedules.0.priceDelta',
    ]);
  });

  it('refuses an end before the start', () => {
    expect(names({ ...weekly, start: '2019-11-08', end: '2019-11-07' })).toEqual([
      'schedules.0.end',
    ]);
    expect(names({ ...weekly, start: '2020-01-01', end: '2019-12-31' })).toEqual([
      'schedules.0.end',
    ]);
  });

  it('needs departure times on an available experience schedule, not on an unavailable one', () => {
    expect(names({ ...weekly, times: [] })).toEqual(['schedules.0.times']);
    expect(names({ ...weekly, times: undefined })).toEqual(['schedules.0.times']);
    expect(names({ ...weekly, type: 'unavailable', times: undefined })).toEqual([]);
    expect(names({ ...weekly, type: 'unavailable', times: [] })).toEqual([]);
    expect(names({ ...weekly, type: 'unavailable', times: [1200] })).toEqual([]);
  });

  it('refuses departure times that are not HHMM, naming each', () => {
    expect(names({ ...weekly, times: [900, 960, 2400, -1, 1.5, 2359] })).toEqual([
      'schedules.0.times.1',
      'schedules.0.times.2',
      'schedules.0.times.3',
      'schedules.0.times.4',
    ]);
    expect(names({ ...weekly, type: 'unavailable', times: [1060] })).toEqual([
      'schedules.0.times.0',
    ]);
  });

  it('refuses timeRanges on an experience schedule', () => {
    expect(names({ ...weekly, timeRanges: [{ startTime: 900, endTime: 1000 }] })).toEqual([
      'schedules.0.timeRanges',
    ]);
    expect(names({ ...weekly, timeRanges: [] })).toEqual(['schedules.0.timeRanges']);
  });

  it('refuses times on a guide schedule', () => {
    expect(names({ ...guide, times: [900] }, 'guide')).toEqual(['schedules.0.times']);
    expect(names({ ...guide, times: [] }, 'guide')).toEqual(['schedules.0.times']);
  });

  it('does not need times on an available guide schedule', () => {
    expect(names({ type: 'available', repeat: 'weekly', days: [1] }, 'guide')).toEqual([]);
  });

  it('refuses guide time ranges with minutes of 60 or more', () => {
    expect(names({ ...guide, timeRanges: [{ startTime: 960, endTime: 1700 }] }, 'guide')).toEqual([
      'schedules.0.timeRanges.0.startTime',
    ]);
    expect(names({ ...guide, timeRanges: [{ startTime: 900, endTime: 1760 }] }, 'guide')).toEqual([
      'schedules.0.timeRanges.0.endTime',
    ]);
  });

  it('allows 2400 as an end time only', () => {
    expect(names({ ...guide, timeRanges: [{ startTime: 2400, endTime: 2400 }] }, 'guide')).toEqual([
      'schedules.0.timeRanges.0.startTime',
      'schedules.0.timeRanges.0',
    ]);
    expect(names({ ...guide, timeRanges: [{ startTime: 900, endTime: 2401 }] }, 'guide')).toEqual([
      'schedules.0.timeRanges.0.endTime',
    ]);
  });

  it('refuses ranges that do not start before they end', () => {
    expect(
      names(
        {
          ...guide,
          timeRanges: [
            { startTime: 900, endTime: 1200 },
            { startTime: 1300, endTime: 1300 },
            { startTime: 1700, endTime: 1400 },
          ],
        },
        'guide',
      ),
    ).toEqual(['schedules.0.timeRanges.1', 'schedules.0.timeRanges.2']);
  });

  it('reports every problem at once', () => {
    expect(
      names({
        type: 'available',
        repeat: 'custom',
        days: [1],
        dates: [],
        start: '2019-11-08',
        end: '2019-11-01',
        timeRanges: [],
      }),
    ).toEqual([
      'schedules.0.dates',
      'schedules.0.days',
      'schedules.0.end',
      'schedules.0.timeRanges',
      'schedules.0.times',
    ]);
  });
});
