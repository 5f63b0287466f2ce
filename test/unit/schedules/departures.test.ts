import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  departuresOn,
  hhmmKey,
  isScheduled,
  priceDeltaOf,
} from '../../../src/modules/schedules/departures.js';
import { addDays, type ScheduleInput } from '../../../src/modules/schedules/schedule.rules.js';

const MONDAY = '2019-11-04';
const TUESDAY = '2019-11-05';
const WEDNESDAY = '2019-11-06';
const SUNDAY = '2019-11-03';

const weekly = (
  days: number[],
  times: number[],
  more: Partial<ScheduleInput> = {},
): ScheduleInput => ({ type: 'available', repeat: 'weekly', days, times, ...more });
const closed = (more: Partial<ScheduleInput>): ScheduleInput => ({
  type: 'unavailable',
  repeat: 'weekly',
  ...more,
});

describe('departuresOn', () => {
  it('lists the times of an available schedule on its days, sorted', () => {
    const schedules = [weekly([1], [1400, 900, 1130])];
    expect(departuresOn(schedules, MONDAY)).toEqual([900, 1130, 1400]);
    expect(departuresOn(schedules, TUESDAY)).toEqual([]);
  });

  it('unites the times of every available schedule of the day, without duplicates', () => {
    const schedules = [weekly([1, 2], [900, 1400]), weekly([1], [1400, 1700, 0])];
    expect(departuresOn(schedules, MONDAY)).toEqual([0, 900, 1400, 1700]);
    expect(departuresOn(schedules, TUESDAY)).toEqual([900, 1400]);
  });

  it('has no departures without an available schedule', () => {
    expect(departuresOn([], MONDAY)).toEqual([]);
    expect(departuresOn([closed({ days: [1], times: [900] })], MONDAY)).toEqual([]);
    expect(departuresOn([closed({ days: [0, 1, 2, 3, 4, 5, 6] })], MONDAY)).toEqual([]);
  });

  it('removes the times an unavailable schedule lists, on its days only', () => {
    const schedules = [
      weekly([1, 2], [900, 1400, 1700]),
      closed({ days: [1], times: [1400, 800] }),
    ];
    expect(departuresOn(schedules, MONDAY)).toEqual([900, 1700]);
    expect(departuresOn(schedules, TUESDAY)).toEqual([900, 1400, 1700]);
  });

  it('removes the whole day when an unavailable schedule lists no times', () => {
    for (const times of [undefined, []]) {
      const schedules = [weekly([1, 2], [900, 1400]), closed({ days: [1], times })];
      expect(departuresOn(schedules, MONDAY)).toEqual([]);
      expect(departuresOn(schedules, TUESDAY)).toEqual([900, 1400]);
    }
  });

  it('lets unavailable schedules win whatever their order', () => {
    const open = weekly([1], [900, 1400]);
    const shut = closed({ days: [1], times: [900] });
    expect(departuresOn([shut, open], MONDAY)).toEqual([1400]);
    expect(departuresOn([open, shut], MONDAY)).toEqual([1400]);
    const wholeDay = closed({ days: [1] });
    expect(departuresOn([wholeDay, open], MONDAY)).toEqual([]);
    expect(departuresOn([open, wholeDay], MONDAY)).toEqual([]);
  });

  it('follows custom dates, for available and unavailable schedules', () => {
    const schedules: ScheduleInput[] = [
      { type: 'available', repeat: 'custom', dates: ['2019-12-24', '2019-12-25'], times: [1000] },
      weekly([2], [900]),
      { type: 'unavailable', repeat: 'custom', dates: ['2019-12-31'] },
    ];
    expect(departuresOn(schedules, '2019-12-24')).toEqual([900, 1000]); // a Tuesday
    expect(departuresOn(schedules, '2019-12-25')).toEqual([1000]);
    expect(departuresOn(schedules, '2019-12-26')).toEqual([]);
    expect(departuresOn(schedules, '2019-12-17')).toEqual([900]);
    expect(departuresOn(schedules, '2019-12-31')).toEqual([]); // a Tuesday, closed
  });

  it('respects the start and end of available and unavailable schedules (inclusive)', () => {
    const schedules = [
      weekly([1], [900], { start: '2019-11-04', end: '2019-11-25' }),
      closed({ days: [1], start: '2019-11-11', end: '2019-11-18' }),
    ];
    expect(departuresOn(schedules, '2019-10-28')).toEqual([]);
    expect(departuresOn(schedules, '2019-11-04')).toEqual([900]);
    expect(departuresOn(schedules, '2019-11-11')).toEqual([]);
    expect(departuresOn(schedules, '2019-11-18')).toEqual([]);
    expect(departuresOn(schedules, '2019-11-25')).toEqual([900]);
    expect(departuresOn(schedules, '2019-12-02')).toEqual([]);
  });

  it('does not change the schedules it reads', () => {
    const schedules = [weekly([1], [1400, 900]), closed({ days: [1], times: [1400] })];
    const copy = structuredClone(schedules);
    departuresOn(schedules, MONDAY);
    expect(schedules).toEqual(copy);
  });
});

describe('blackout schedules', () => {
  it('close like unavailable ones: listed times, or the whole day', () => {
    const open = weekly([1, 2], [900, 1400]);
    expect(
      departuresOn([open, closed({ type: 'blackout', days: [1], times: [900] })], MONDAY),
    ).toEqual([1400]);
    expect(departuresOn([open, closed({ type: 'blackout', days: [1] })], MONDAY)).toEqual([]);
    expect(departuresOn([open, closed({ type: 'blackout', days: [1] })], TUESDAY)).toEqual([
      900, 1400,
    ]);
  });
});

describe('priceDeltaOf', () => {
  it('is the delta of the first available schedule adding the departure that day', () => {
    const schedules = [
      weekly([1], [900], { priceDelta: 5 }),
      weekly([1, 2], [900, 1400], { priceDelta: -2.5 }),
      weekly([1], [1700]),
    ];
    expect(priceDeltaOf(schedules, MONDAY, 900)).toBe(5);
    expect(priceDeltaOf(schedules, TUESDAY, 900)).toBe(-2.5);
    expect(priceDeltaOf(schedules, MONDAY, 1400)).toBe(-2.5);
    expect(priceDeltaOf(schedules, MONDAY, 1700)).toBe(0);
    expect(priceDeltaOf(schedules, WEDNESDAY, 900)).toBe(0);
    expect(priceDeltaOf(schedules, 'not a date', 900)).toBe(0);
  });
});

describe('isScheduled', () => {
  const schedules = [
    weekly([0, 3], [930, 1500]),
    closed({ days: [3], times: [1500], start: WEDNESDAY, end: WEDNESDAY }),
  ];

  it('is true for a departure of that date only', () => {
    expect(isScheduled(schedules, SUNDAY, 930)).toBe(true);
    expect(isScheduled(schedules, SUNDAY, 1500)).toBe(true);
    expect(isScheduled(schedules, SUNDAY, 1000)).toBe(false);
    expect(isScheduled(schedules, MONDAY, 930)).toBe(false);
    expect(isScheduled(schedules, WEDNESDAY, 930)).toBe(true);
    expect(isScheduled(schedules, WEDNESDAY, 1500)).toBe(false);
    expect(isScheduled(schedules, addDays(WEDNESDAY, 7), 1500)).toBe(true);
  });

  it('is false for everything without an available schedule', () => {
    expect(isScheduled([], SUNDAY, 930)).toBe(false);
  });
});

describe('hhmmKey', () => {
  it('is the HHMM integer, unpadded (as Xola)', () => {
    expect(hhmmKey(0)).toBe('0');
    expect(hhmmKey(5)).toBe('5');
    expect(hhmmKey(930)).toBe('930');
    expect(hhmmKey(2359)).toBe('2359');
  });
});

describe('departure properties', () => {
  const hhmm = fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m]) => h * 100 + m);
  const date = fc.integer({ min: 0, max: 800 }).map((offset) => addDays('2019-01-01', offset));
  const bound = fc.option(date, { nil: undefined });
  const schedule: fc.Arbitrary<ScheduleInput> = fc
    .record({
      type: fc.constantFrom('available' as const, 'unavailable' as const),
      repeat: fc.constantFrom('weekly' as const, 'custom' as const),
      days: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 7 }),
      dates: fc.uniqueArray(date, { minLength: 1, maxLength: 10 }),
      times: fc.array(hhmm, { maxLength: 8 }),
      start: bound,
      end: bound,
    })
    .map(({ repeat, days, dates, start, end, ...rest }) => ({
      ...rest,
      repeat,
      ...(repeat === 'weekly' ? { days } : { dates }),
      ...(start !== undefined ? { start } : {}),
      ...(end !== undefined ? { end } : {}),
    }));

  it('yields no departures on a date an unavailable whole-day schedule covers', () => {
    fc.assert(
      fc.property(
        fc.array(schedule, { maxLength: 6 }),
        date,
        fc.boolean(),
        fc.nat(),
        (schedules, day, asCustom, at) => {
          const wholeDay: ScheduleInput = asCustom
            ? { type: 'unavailable', repeat: 'custom', dates: [day] }
            : { type: 'unavailable', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: [] };
          const all = [...schedules];
          all.splice(at % (all.length + 1), 0, wholeDay);
          expect(departuresOn(all, day)).toEqual([]);
        },
      ),
    );
  });

  it('yields sorted, unique, valid times, each from an available schedule and not removed', () => {
    fc.assert(
      fc.property(fc.array(schedule, { maxLength: 6 }), date, (schedules, day) => {
        const departures = departuresOn(schedules, day);
        for (let i = 1; i < departures.length; i++) {
          expect(departures[i]!).toBeGreaterThan(departures[i - 1]!);
        }
        for (const time of departures) {
          expect(isScheduled(schedules, day, time)).toBe(true);
          expect(
            schedules.some(
              (s) =>
                s.type === 'available' &&
                s.times!.includes(time) &&
                (s.start === undefined || s.start <= day) &&
                (s.end === undefined || day <= s.end),
            ),
          ).toBe(true);
        }
      }),
    );
  });

  it('matches a model of the rule', () => {
    const covers = (s: ScheduleInput, day: string) =>
      (s.start === undefined || s.start <= day) &&
      (s.end === undefined || day <= s.end) &&
      (s.repeat === 'weekly'
        ? s.days!.includes(new Date(`${day}T00:00:00Z`).getUTCDay())
        : s.dates!.includes(day));
    fc.assert(
      fc.property(fc.array(schedule, { maxLength: 6 }), date, (schedules, day) => {
        const applying = schedules.filter((s) => covers(s, day));
        const closedAllDay = applying.some(
          (s) => s.type === 'unavailable' && (s.times ?? []).length === 0,
        );
        const removed = new Set(
          applying.filter((s) => s.type === 'unavailable').flatMap((s) => s.times ?? []),
        );
        const expected = closedAllDay
          ? []
          : [
              ...new Set(
                applying.filter((s) => s.type === 'available').flatMap((s) => s.times ?? []),
              ),
            ]
              .filter((t) => !removed.has(t))
              .sort((a, b) => a - b);
        expect(departuresOn(schedules, day)).toEqual(expected);
      }),
    );
  });
});
