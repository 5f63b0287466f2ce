/**
 * isoInstant: an instant written as `Date.prototype.toISOString` writes it, in arithmetic.
 * Every datetime a list binds goes through it, so it must agree with JavaScript's own
 * calendar over the whole range a query may name (years 1 to 9999).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoInstant } from '../../../src/query/values.js';

const FIRST = Date.parse('0001-01-01T00:00:00.000Z');
const LAST = Date.parse('9999-12-31T23:59:59.999Z');

describe('isoInstant', () => {
  it('writes what toISOString writes, over years 1 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: FIRST, max: LAST }), (ms) => {
        expect(isoInstant(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    '1970-01-01T00:00:00.000Z',
    '1969-12-31T23:59:59.999Z',
    '0001-01-01T00:00:00.000Z',
    '0099-12-31T23:59:59.999Z',
    '0100-03-01T00:00:00.000Z',
    '1600-02-29T12:34:56.789Z',
    '1900-02-28T23:59:59.999Z',
    '1900-03-01T00:00:00.000Z',
    '2000-02-29T00:00:00.001Z',
    '2024-12-31T23:59:59.999Z',
    '9999-12-31T23:59:59.999Z',
  ])('writes %s back as it was', (text) => {
    expect(isoInstant(Date.parse(text))).toBe(text);
  });

  it('leaves instants outside years 1-9999 to toISOString', () => {
    for (const ms of [FIRST - 1, LAST + 1, 8.64e15])
      expect(isoInstant(ms)).toBe(new Date(ms).toISOString());
    expect(() => isoInstant(Number.NaN)).toThrow(RangeError);
  });
});
