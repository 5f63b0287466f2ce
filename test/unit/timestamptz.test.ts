/**
 * The fast `timestamptz` reader (src/db/timestamptz.ts) against pg's own parser: every text
 * PostgreSQL can write for an instant, in any offset and with any fraction, reads as the
 * same instant; every other text goes to pg's parser and gets its answer.
 */
import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { timestamptzMs, timestamptzParser } from '../../src/db/timestamptz.js';

const pgParse = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (text: string) => unknown;
const parse = timestamptzParser(pgParse);
const pad = (n: number, size = 2) => String(n).padStart(size, '0');

/** An offset as PostgreSQL writes it: `+HH`, then `:MM` and `:SS` only when not zero. */
function offsetText(seconds: number): string {
  const size = Math.abs(seconds);
  const [h, m, s] = [Math.trunc(size / 3600), Math.trunc(size / 60) % 60, size % 60];
  return `${seconds < 0 ? '-' : '+'}${pad(h)}${m || s ? `:${pad(m)}` : ''}${s ? `:${pad(s)}` : ''}`;
}

/** The instant `ms` written as PostgreSQL writes it in a zone at `offset` seconds. */
function pgText(ms: number, offset: number, micros: number, digits: number): string {
  const local = new Date(ms + offset * 1000);
  const fraction = String(local.getUTCMilliseconds() * 1000 + micros)
    .padStart(6, '0')
    .slice(0, digits)
    .replace(/0+$/, '');
  return (
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ` +
    `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${fraction ? `.${fraction}` : ''}${offsetText(offset)}`
  );
}

describe('timestamptz text', () => {
  it('reads every instant PostgreSQL writes in years 1000-9999 as pg does', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1000, 0, 2), max: Date.UTC(9999, 11, 30) }),
        fc.integer({ min: -15 * 3600 - 59 * 60 - 59, max: 15 * 3600 + 59 * 60 + 59 }),
        fc.integer({ min: 0, max: 999 }),
        fc.integer({ min: 0, max: 6 }),
        (ms, offset, micros, digits) => {
          const text = pgText(ms, offset, micros, digits);
          const fast = timestamptzMs(text);
          expect(fast, text).not.toBeNaN();
          expect(fast, text).toBe((pgParse(text) as Date).getTime());
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('leaves every other form to pg, and answers what pg answers', () => {
    for (const text of [
      'infinity',
      '-infinity',
      '0099-03-01 10:00:00+00',
      '0999-12-31 23:59:59.5+00',
      '0044-03-15 12:00:00+00 BC',
      '2019-11-08 10:00:00+00 BC',
      '12019-11-08 10:00:00+00',
      '2019-11-08',
      '2019-11-08 10:00:00',
      '2019-11-08T10:00:00Z',
      '2019-11-08 10:00:00.+00',
      '2019-11-08 10:00:00+0',
      '2019-11-08 10:00:00+00:3',
      '2019-11-08 10:00:00+00:30:00:00',
      '2019-11-08 1x:00:00+00',
    ]) {
      expect(timestamptzMs(text), text).toBeNaN();
      expect(parse(text), text).toEqual(pgParse(text));
    }
  });
});
