/**
 * The check of the floor's bodies against ours (bench/json-diff.ts): the same JSON value
 * whatever the key order, and the first difference named by its path.
 */
import { describe, expect, it } from 'vitest';
import { describeDifference, firstDifference } from '../../../bench/json-diff.js';

describe('firstDifference (the floor bodies against ours)', () => {
  it('finds none in equal values whatever their key order', () => {
    const ours = { data: [{ id: 'a', items: [{ n: 1 }] }], paging: { next: null } };
    const theirs = { paging: { next: null }, data: [{ items: [{ n: 1 }], id: 'a' }] };
    expect(firstDifference(ours, theirs)).toBeUndefined();
  });

  it('names the path of the first differing value', () => {
    const ours = { data: [{ id: 'a' }, { id: 'b', items: [{ at: '10:00+01:00' }] }] };
    const theirs = { data: [{ id: 'a' }, { id: 'b', items: [{ at: '10:00+02:00' }] }] };
    expect(firstDifference(ours, theirs)).toEqual({
      path: '$.data[1].items[0].at',
      ours: '10:00+01:00',
      theirs: '10:00+02:00',
    });
  });

  it('reports a missing key, an extra element and a changed kind', () => {
    expect(firstDifference({ a: 1, b: 2 }, { a: 1 })?.path).toBe('$.b');
    expect(firstDifference({ a: 1 }, { a: 1, 'x-y': 2 })?.path).toBe('$["x-y"]');
    expect(firstDifference([1], [1, 2])).toEqual({ path: '$[1]', ours: undefined, theirs: 2 });
    expect(firstDifference({ a: null }, { a: {} })?.path).toBe('$.a');
    expect(firstDifference({ a: [] }, { a: {} })?.path).toBe('$.a');
  });

  it('compares numbers as JSON values (45.000 from PostgreSQL is 45)', () => {
    expect(firstDifference(JSON.parse('{"a":45}'), JSON.parse('{"a":45.000}'))).toBeUndefined();
    expect(firstDifference({ a: 45 }, { a: '45' })?.path).toBe('$.a');
  });

  it('describes a difference in one line', () => {
    expect(describeDifference({ path: '$.b', ours: 2, theirs: undefined })).toBe(
      '$.b: ours 2, floor missing',
    );
  });
});
