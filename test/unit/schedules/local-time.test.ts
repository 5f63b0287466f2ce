import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  instantToLocal,
  isTimeZone,
  localToInstant,
  parseStart,
} from '../../../src/modules/schedules/local-time.js';

const iso = (instant: Date | undefined) => instant?.toISOString();

describe('isTimeZone', () => {
  it.each(['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'])(
    'accepts %s',
    (zone) => {
      expect(isTimeZone(zone)).toBe(true);
    },
  );

  it.each(['Europe/Pariss', 'Mars/Olympus', '', 'local', '+05:00', 'UTC+1'])(
    'refuses %s',
    (zone) => {
      expect(isTimeZone(zone)).toBe(false);
    },
  );
});

describe('localToInstant', () => {
  it('reads a local time in UTC as is', () => {
    expect(iso(localToInstant('2019-11-08', 930, 'UTC'))).toBe('2019-11-08T09:30:00.000Z');
    expect(iso(localToInstant('2019-11-08', 0, 'UTC'))).toBe('2019-11-08T00:00:00.000Z');
    expect(iso(localToInstant('2019-11-08', 2359, 'UTC'))).toBe('2019-11-08T23:59:00.000Z');
  });

  it('uses the offset of the date: Paris in winter (+01:00) and summer (+02:00)', () => {
    expect(iso(localToInstant('2019-01-15', 900, 'Europe/Paris'))).toBe('2019-01-15T08:00:00.000Z');
    expect(iso(localToInstant('2019-07-15', 900, 'Europe/Paris'))).toBe('2019-07-15T07:00:00.000Z');
  });

  it('handles a half-hour offset: Asia/Kolkata is +05:30', () => {
    expect(iso(localToInstant('2019-07-01', 900, 'Asia/Kolkata'))).toBe('2019-07-01T03:30:00.000Z');
    // 03:00 local is the previous UTC day.
    expect(iso(localToInstant('2019-07-01', 300, 'Asia/Kolkata'))).toBe('2019-06-30T21:30:00.000Z');
  });

  it('handles a negative offset: New York in winter (-05:00) and summer (-04:00)', () => {
    expect(iso(localToInstant('2019-01-15', 900, 'America/New_York'))).toBe(
      '2019-01-15T14:00:00.000Z',
    );
    expect(iso(localToInstant('2019-07-15', 2200, 'America/New_York'))).toBe(
      '2019-07-16T02:00:00.000Z',
    );
  });

  describe('Europe/Paris spring-forward day, 2019-03-31 (02:00 -> 03:00)', () => {
    it('has no 02:00..02:59: undefined', () => {
      expect(localToInstant('2019-03-31', 200, 'Europe/Paris')).toBeUndefined();
      expect(localToInstant('2019-03-31', 230, 'Europe/Paris')).toBeUndefined();
      expect(localToInstant('2019-03-31', 259, 'Europe/Paris')).toBeUndefined();
    });

    it('keeps 01:59 at +01:00 and 03:00 at +02:00, one minute apart', () => {
      const before = localToInstant('2019-03-31', 159, 'Europe/Paris');
      const after = localToInstant('2019-03-31', 300, 'Europe/Paris');
      expect(iso(before)).toBe('2019-03-31T00:59:00.000Z');
      expect(iso(after)).toBe('2019-03-31T01:00:00.000Z'); // 03:00+02:00
      expect(after!.getTime() - before!.getTime()).toBe(60_000);
    });

    it('finds 02:30 on the days around it', () => {
      expect(iso(localToInstant('2019-03-30', 230, 'Europe/Paris'))).toBe(
        '2019-03-30T01:30:00.000Z',
      );
      expect(iso(localToInstant('2019-04-01', 230, 'Europe/Paris'))).toBe(
        '2019-04-01T00:30:00.000Z',
      );
    });
  });

  describe('Europe/Paris fall-back day, 2019-10-27 (03:00 -> 02:00)', () => {
    // 02:00..02:59 happens twice: first at +02:00 (00:xxZ), then at +01:00 (01:xxZ).
    // Documented behaviour (Luxon's): the ambiguous local time resolves to the LATER
    // instant, the second occurrence, in standard time (+01:00).
    it('resolves the ambiguous 02:30 to its second occurrence, 02:30+01:00', () => {
      expect(iso(localToInstant('2019-10-27', 230, 'Europe/Paris'))).toBe(
        '2019-10-27T01:30:00.000Z',
      );
      expect(iso(localToInstant('2019-10-27', 200, 'Europe/Paris'))).toBe(
        '2019-10-27T01:00:00.000Z',
      );
    });

    it('keeps the unambiguous times around it', () => {
      expect(iso(localToInstant('2019-10-27', 159, 'Europe/Paris'))).toBe(
        '2019-10-26T23:59:00.000Z', // 01:59+02:00
      );
      expect(iso(localToInstant('2019-10-27', 300, 'Europe/Paris'))).toBe(
        '2019-10-27T02:00:00.000Z', // 03:00+01:00
      );
    });

    it('reads both occurrences of 02:30 back as 02:30 local', () => {
      for (const instant of ['2019-10-27T00:30:00Z', '2019-10-27T01:30:00Z']) {
        expect(instantToLocal(new Date(instant), 'Europe/Paris')).toEqual({
          date: '2019-10-27',
          hhmm: 230,
        });
      }
    });
  });

  describe('America/New_York', () => {
    it('has no 02:30 on the spring-forward day, 2019-03-10', () => {
      expect(localToInstant('2019-03-10', 230, 'America/New_York')).toBeUndefined();
      expect(iso(localToInstant('2019-03-10', 300, 'America/New_York'))).toBe(
        '2019-03-10T07:00:00.000Z', // 03:00-04:00
      );
      expect(iso(localToInstant('2019-03-10', 159, 'America/New_York'))).toBe(
        '2019-03-10T06:59:00.000Z', // 01:59-05:00
      );
    });

    it('resolves the repeated 01:30 of 2019-11-03 to standard time (-05:00) as in Paris', () => {
      expect(iso(localToInstant('2019-11-03', 130, 'America/New_York'))).toBe(
        '2019-11-03T06:30:00.000Z',
      );
    });
  });

  it('is undefined for a date that does not exist', () => {
    expect(localToInstant('2019-02-30', 900, 'UTC')).toBeUndefined();
    expect(localToInstant('2019-02-29', 900, 'Europe/Paris')).toBeUndefined();
    expect(localToInstant('2019-13-01', 900, 'UTC')).toBeUndefined();
  });

  it('is undefined for 2400 (not a time of the day)', () => {
    expect(localToInstant('2019-07-01', 2400, 'UTC')).toBeUndefined();
  });

  it('is undefined for an unknown zone', () => {
    expect(localToInstant('2019-07-01', 900, 'Mars/Olympus')).toBeUndefined();
  });
});

describe('instantToLocal', () => {
  it('gives the local date and HHMM', () => {
    expect(instantToLocal(new Date('2019-11-08T09:30:00Z'), 'UTC')).toEqual({
      date: '2019-11-08',
      hhmm: 930,
    });
    expect(instantToLocal(new Date('2019-11-08T23:30:00Z'), 'Europe/Paris')).toEqual({
      date: '2019-11-09',
      hhmm: 30,
    });
    expect(instantToLocal(new Date('2019-11-08T20:00:00Z'), 'Asia/Kolkata')).toEqual({
      date: '2019-11-09',
      hhmm: 130,
    });
    expect(instantToLocal(new Date('2019-11-08T03:00:00Z'), 'America/New_York')).toEqual({
      date: '2019-11-07',
      hhmm: 2200,
    });
  });

  const zones = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'Australia/Sydney'];
  const localTime = fc.record({
    date: fc
      .integer({ min: 0, max: 3 * 366 })
      .map((d) => new Date(Date.UTC(2019, 0, 1 + d)).toISOString().slice(0, 10)),
    hhmm: fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([h, m]) => h * 100 + m),
    zone: fc.constantFrom(...zones),
  });

  it('round-trips every local time that exists', () => {
    fc.assert(
      fc.property(localTime, ({ date, hhmm, zone }) => {
        const instant = localToInstant(date, hhmm, zone);
        if (instant === undefined) return; // skipped by a daylight-saving change
        expect(instantToLocal(instant, zone)).toEqual({ date, hhmm });
      }),
      { numRuns: 500 },
    );
  });

  it('takes the later occurrence at the very first minute of a repeated hour too', () => {
    // Sydney fell back from 03:00 AEDT to 02:00 AEST on 2020-04-05: 02:00 was lived at 15:00Z
    // and again at 16:00Z; found by the property below (seed 339370887).
    expect(localToInstant('2020-04-05', 200, 'Australia/Sydney')?.toISOString()).toBe(
      '2020-04-04T16:00:00.000Z',
    );
    expect(localToInstant('2019-10-27', 200, 'Europe/Paris')?.toISOString()).toBe(
      '2019-10-27T01:00:00.000Z',
    );
    expect(localToInstant('2020-04-05', 159, 'Australia/Sydney')?.toISOString()).toBe(
      '2020-04-04T14:59:00.000Z',
    );
  });

  it('round-trips every whole-minute instant except the first of two repeated local times', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2019, 0, 1) / 60_000, max: Date.UTC(2022, 0, 1) / 60_000 }),
        fc.constantFrom(...zones),
        (minute, zone) => {
          const instant = new Date(minute * 60_000);
          const { date, hhmm } = instantToLocal(instant, zone);
          const back = localToInstant(date, hhmm, zone)!;
          expect(back).toBeDefined();
          if (back.getTime() !== instant.getTime()) {
            // Only an ambiguous fall-back time, resolved to its later occurrence.
            expect(back.getTime()).toBeGreaterThan(instant.getTime());
            expect(instantToLocal(back, zone)).toEqual({ date, hhmm });
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('only ever skips local times on a daylight-saving day', () => {
    // Over a year in Paris, exactly the 60 minutes 02:00..02:59 of 2019-03-31 are missing.
    const missing: string[] = [];
    for (let d = 0; d < 365; d++) {
      const date = new Date(Date.UTC(2019, 0, 1 + d)).toISOString().slice(0, 10);
      for (const hhmm of [0, 159, 200, 230, 259, 300, 1200, 2359]) {
        if (!localToInstant(date, hhmm, 'Europe/Paris')) missing.push(`${date} ${hhmm}`);
      }
    }
    expect(missing).toEqual(['2019-03-31 200', '2019-03-31 230', '2019-03-31 259']);
  });
});

describe('parseStart', () => {
  it('reads an offset, whatever the zone', () => {
    expect(iso(parseStart('2019-07-01T09:00:00+02:00', 'UTC'))).toBe('2019-07-01T07:00:00.000Z');
    expect(iso(parseStart('2019-07-01T09:00:00-04:00', 'Europe/Paris'))).toBe(
      '2019-07-01T13:00:00.000Z',
    );
    expect(iso(parseStart('2019-07-01T09:00:00+05:30', 'UTC'))).toBe('2019-07-01T03:30:00.000Z');
    expect(iso(parseStart('2019-07-01T09:00:00+0200', 'UTC'))).toBe('2019-07-01T07:00:00.000Z');
    expect(iso(parseStart('2019-07-01T09:00:00.250+02:00', 'UTC'))).toBe(
      '2019-07-01T07:00:00.250Z',
    );
  });

  it('reads Z as UTC, whatever the zone', () => {
    expect(iso(parseStart('2019-07-01T09:00:00Z', 'Europe/Paris'))).toBe(
      '2019-07-01T09:00:00.000Z',
    );
    expect(iso(parseStart('2019-07-01T09:00:00.000Z', 'Asia/Kolkata'))).toBe(
      '2019-07-01T09:00:00.000Z',
    );
  });

  it('reads a local date-time in the zone', () => {
    expect(iso(parseStart('2019-07-01T09:00:00', 'Europe/Paris'))).toBe('2019-07-01T07:00:00.000Z');
    expect(iso(parseStart('2019-07-01T09:00', 'Europe/Paris'))).toBe('2019-07-01T07:00:00.000Z');
    expect(iso(parseStart('2019-01-01T09:00', 'Europe/Paris'))).toBe('2019-01-01T08:00:00.000Z');
    expect(iso(parseStart('2019-07-01T09:00:00', 'Asia/Kolkata'))).toBe('2019-07-01T03:30:00.000Z');
    expect(iso(parseStart('2019-07-01T09:00:00', 'UTC'))).toBe('2019-07-01T09:00:00.000Z');
  });

  it('is undefined for a local time the zone skips', () => {
    expect(parseStart('2019-03-31T02:30:00', 'Europe/Paris')).toBeUndefined();
    expect(parseStart('2019-03-31T02:00', 'Europe/Paris')).toBeUndefined();
    expect(parseStart('2019-03-10T02:30:00', 'America/New_York')).toBeUndefined();
    // The same wall time exists elsewhere, and with an explicit offset it is an instant.
    expect(iso(parseStart('2019-03-31T02:30:00', 'UTC'))).toBe('2019-03-31T02:30:00.000Z');
    expect(iso(parseStart('2019-03-31T02:30:00+01:00', 'Europe/Paris'))).toBe(
      '2019-03-31T01:30:00.000Z',
    );
  });

  it('reads an ambiguous local time as localToInstant does (the later occurrence)', () => {
    expect(iso(parseStart('2019-10-27T02:30:00', 'Europe/Paris'))).toBe(
      iso(localToInstant('2019-10-27', 230, 'Europe/Paris')),
    );
    // Whatever the season the server is in: Luxon alone guessed from today's offset, and
    // read it as the first occurrence in summer.
    for (const today of ['2019-07-01T12:00:00Z', '2019-01-15T12:00:00Z']) {
      vi.useFakeTimers({ now: new Date(today), toFake: ['Date'] });
      try {
        expect(iso(parseStart('2019-10-27T02:30:15.250', 'Europe/Paris')), today).toBe(
          '2019-10-27T01:30:15.250Z',
        );
      } finally {
        vi.useRealTimers();
      }
    }
    // With an offset, either occurrence can be named.
    expect(iso(parseStart('2019-10-27T02:30:00+02:00', 'Europe/Paris'))).toBe(
      '2019-10-27T00:30:00.000Z',
    );
  });

  it('reads an hour-only offset (+02) the same whatever the zone', () => {
    const text = '2019-07-01T09:00:00+02';
    const answers = ['UTC', 'Europe/Paris', 'Asia/Kolkata'].map((zone) =>
      iso(parseStart(text, zone)),
    );
    // Either accepted as 07:00Z everywhere or refused everywhere; never zone-dependent.
    expect(new Set(answers).size).toBe(1);
    expect([undefined, '2019-07-01T07:00:00.000Z']).toContain(answers[0]);
  });

  it.each([
    '',
    'nonsense',
    '2019-07-01',
    '2019-07-01T09',
    '2019-07-01 09:00:00Z',
    '2019-02-30T09:00:00Z',
    '2019-13-01T09:00:00Z',
    '2019-07-01T25:00:00Z',
    '2019-07-01T09:60:00Z',
    // Offsets beyond any zone's (RFC 3339 hours 00..23, real zones -12:00..+14:00).
    '2019-07-01T09:00:00+25:00',
    '2019-07-01T09:00:00+99:99',
    '2019-07-01T09:00:00+14:60',
    '20190701T090000Z',
    '2019-7-1T09:00:00Z',
    '2019-07-01T09:00:00Z trailing',
  ])('is undefined for malformed %j', (text) => {
    expect(parseStart(text, 'Europe/Paris')).toBeUndefined();
  });
});
