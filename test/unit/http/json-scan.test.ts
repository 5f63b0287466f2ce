/**
 * The scan of a body's text before JSON.parse: it counts what JSON.parse would make (never
 * less), ignores what is inside strings, and stops as soon as a count passes its limit, so
 * the work it does is bounded by the limit, not by the size of the text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countJson } from '../../../src/http/json-scan.js';

const NO_LIMIT = { values: Infinity, keys: Infinity, depth: Infinity };

/** What JSON.parse makes of `text`: its values, keys and depth. */
function parsed(text: string) {
  let values = 0;
  let keys = 0;
  let depth = 0;
  const visit = (value: unknown, level: number) => {
    values++;
    if (value === null || typeof value !== 'object') return;
    depth = Math.max(depth, level + 1);
    const children = Array.isArray(value) ? value : Object.values(value);
    if (!Array.isArray(value)) keys += children.length;
    for (const child of children) visit(child, level + 1);
  };
  visit(JSON.parse(text), 0);
  return { values, keys, depth };
}

describe('countJson', () => {
  it('counts values, keys and depth outside strings', () => {
    const text = '{"a":[1,2,{"b":"x,y{[:"}]}';
    expect(countJson(text, NO_LIMIT)).toEqual({ values: 6, keys: 2, depth: 3 });
    expect(countJson(text, NO_LIMIT)).toEqual(parsed(text));
  });

  it('reads escaped quotes and backslashes inside strings', () => {
    for (const text of ['["a\\"b,c", 1]', '["a\\\\", 1]', '["\\\\\\"[,", {"k\\"":2}]']) {
      const counts = countJson(text, NO_LIMIT);
      expect(counts.values, text).toBe(parsed(text).values);
      expect(counts.keys, text).toBe(parsed(text).keys);
    }
  });

  it('never counts less than JSON.parse makes; empty arrays and objects count twice', () => {
    fc.assert(
      fc.property(fc.json({ depthSize: 'medium' }), (text) => {
        const counts = countJson(text, NO_LIMIT);
        const actual = parsed(text);
        expect(counts.values).toBeGreaterThanOrEqual(actual.values);
        expect(counts.values).toBeLessThanOrEqual(2 * actual.values);
        expect(counts.keys).toBe(actual.keys);
        expect(counts.depth).toBe(actual.depth);
      }),
      { numRuns: 500 },
    );
  });

  it('stops right past a limit, whatever follows', () => {
    const million = `[${'1,'.repeat(999_999)}1]`;
    expect(countJson(million, { ...NO_LIMIT, values: 1_000 }).values).toBe(1_001);
    const keys = `{${Array.from({ length: 10_000 }, (_, i) => `"k${i}":1`).join(',')}}`;
    expect(countJson(keys, { ...NO_LIMIT, keys: 100 }).keys).toBe(101);
    const deep = `${'['.repeat(500_000)}${']'.repeat(500_000)}`;
    expect(countJson(deep, { ...NO_LIMIT, depth: 32 })).toEqual({ values: 34, keys: 0, depth: 33 });
  });

  it('leaves malformed text to JSON.parse: an unterminated string ends the scan', () => {
    expect(countJson('["a,b,c', NO_LIMIT)).toEqual({ values: 2, keys: 0, depth: 1 });
  });
});
