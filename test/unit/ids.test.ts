import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idTimestamp, isId, newId } from '../../src/db/ids.js';

describe('newId', () => {
  it('makes 24 lowercase hex characters', () => {
    for (let i = 0; i < 100; i++) expect(newId()).toMatch(/^[0-9a-f]{24}$/);
  });

  it('is unique and sorts by creation order within a process', () => {
    const ids = Array.from({ length: 20_000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    const sameSecond = Array.from({ length: 1000 }, () => newId(1_700_000_000_000));
    // The counter wraps at 2^24; within fewer ids than that, order is creation order.
    const wrapped = sameSecond.findIndex((id, i) => i > 0 && id < sameSecond[i - 1]!);
    expect(wrapped === -1 || sameSecond.length > 0x1000000).toBe(true);
  });

  it('encodes its creation second, so later seconds sort later', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 2 }), (seconds) => {
        const a = newId(seconds * 1000);
        const b = newId((seconds + 1) * 1000);
        expect(idTimestamp(a).getTime()).toBe(seconds * 1000);
        expect(a < b).toBe(true);
      }),
    );
  });

  it('recognises ids', () => {
    expect(isId(newId())).toBe(true);
    for (const bad of ['', 'ABCDEF0123456789abcdef01', '0123', 'g'.repeat(24), 42, null]) {
      expect(isId(bad)).toBe(false);
    }
  });
});
