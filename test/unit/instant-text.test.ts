/**
 * instant-text writes ISO text from epoch milliseconds by itself; this holds it to what
 * `Date.prototype.toISOString` writes, for any instant (years 1-9999 by tables, outside by
 * the Date itself), on a miss and a hit of its per-day cache and after the cache empties.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utcIso, wallClockText } from '../../src/domain/instant-text.js';

const YEAR_1 = Date.parse('0001-01-01T00:00:00Z');
const YEAR_10000 = Date.parse('9999-12-31T23:59:59.999Z') + 1;
/** Every instant a Date holds (±8.64e15 ms), and the years 1-9999 more often. */
const anyInstant = fc.oneof(
  fc.integer({ min: YEAR_1, max: YEAR_10000 - 1 }),
  fc.integer({ min: -8.64e15, max: 8.64e15 }),
  fc.constantFrom(YEAR_1, YEAR_1 - 1, YEAR_10000, YEAR_10000 - 1, 0, -1, 999, 1000),
);

describe('utcIso', () => {
  it('writes what toISOString writes, for any instant, twice', () => {
    fc.assert(
      fc.property(anyInstant, (ms) => {
        const expected = new Date(ms).toISOString();
        expect(utcIso(ms)).toBe(expected);
        expect(utcIso(ms)).toBe(expected);
      }),
      { numRuns: 5000 },
    );
  });

  it('keeps writing the right date after its per-day cache empties', () => {
    const start = Date.UTC(2020, 0, 1, 12, 30, 15, 7);
    for (let day = 0; day < 5000; day++) {
      const ms = start + day * 86_400_000;
      expect(utcIso(ms)).toBe(new Date(ms).toISOString());
    }
  });
});

describe('wallClockText', () => {
  it('is the ISO text without its zone, milliseconds only when not 0', () => {
    fc.assert(
      fc.property(anyInstant, (ms) => {
        const text = new Date(ms).toISOString();
        const expected =
          ms < YEAR_1 || ms >= YEAR_10000
            ? undefined
            : new Date(ms).getUTCMilliseconds() === 0
              ? text.slice(0, 19)
              : text.slice(0, 23);
        expect(wallClockText(ms)).toBe(expected);
      }),
      { numRuns: 5000 },
    );
  });

  it('truncates a fraction of a millisecond as a Date does', () => {
    // Before 1970 truncation moves toward zero, a millisecond later.
    expect(wallClockText(Date.UTC(1890, 5, 1, 10) - 0.4)).toBe('1890-06-01T10:00:00');
    expect(wallClockText(Date.UTC(1890, 5, 1, 10) - 1.4)).toBe('1890-06-01T09:59:59.999');
    expect(wallClockText(Date.UTC(2020, 5, 1, 10) + 0.9)).toBe('2020-06-01T10:00:00');
    expect(wallClockText(-0.5)).toBe('1970-01-01T00:00:00');
    fc.assert(
      fc.property(fc.double({ min: -6e13, max: 2.5e14, noNaN: true }), (ms) => {
        expect(wallClockText(ms)).toBe(wallClockText(new Date(ms).getTime()));
      }),
    );
  });
});
