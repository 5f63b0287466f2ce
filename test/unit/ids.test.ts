import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idTimestamp, isId, newId, randomHex } from '../../src/db/ids.js';

describe('newId', () => {
  it('makes 24 lowercase hex characters', () => {
    for (let i = 0; i < 100; i++) expect(newId()).toMatch(/^[0-9a-f]{24}$/);
  });

  it('is unique', () => {
    const ids = Array.from({ length: 20_000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('carries 64 random bits after the second: a neighbour cannot be guessed from an id', () => {
    const sameSecond = Array.from({ length: 4000 }, () => newId(1_700_000_000_000));
    const random = sameSecond.map((id) => BigInt(`0x${id.slice(8)}`));
    // No shared per-process part and no counter: consecutive ids differ in about half of
    // their 64 random bits, and never by a small step.
    const differingBits = (a: bigint, b: bigint) => (a ^ b).toString(2).replace(/0/g, '').length;
    const distances = random.slice(1).map((r, i) => differingBits(r, random[i]!));
    const mean = distances.reduce((a, b) => a + b, 0) / distances.length;
    expect(mean).toBeGreaterThan(28);
    expect(mean).toBeLessThan(36);
    const steps = random.slice(1).map((r, i) => (r > random[i]! ? r - random[i]! : random[i]! - r));
    expect(steps.filter((s) => s < 2n ** 32n)).toEqual([]);
    // Every one of the 64 bits takes both values across the sample.
    for (let bit = 0n; bit < 64n; bit++) {
      const ones = random.filter((r) => (r >> bit) & 1n).length;
      expect(ones, `bit ${bit}`).toBeGreaterThan(1000);
      expect(ones, `bit ${bit}`).toBeLessThan(3000);
    }
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

describe('randomHex', () => {
  it('hands out each batched byte once, across batches and for any mix of sizes', () => {
    // Sizes that do not divide the batch: a take never reuses bytes of the batch before.
    const sizes = Array.from({ length: 3000 }, (_, i) => [8, 12, 5, 64][i % 4]!);
    const taken = sizes.map((bytes) => randomHex(bytes));
    taken.forEach((hex, i) => expect(hex).toMatch(new RegExp(`^[0-9a-f]{${sizes[i]! * 2}}$`)));
    const long = taken.filter((hex) => hex.length >= 16);
    expect(new Set(long).size).toBe(long.length);
    // A take does not begin with bytes the one before it handed out (an overlapping slice);
    // six random bytes found there by chance: about 2^-42 per pair.
    for (let i = 1; i < taken.length; i++)
      if (taken[i]!.length >= 12) expect(taken[i - 1]!).not.toContain(taken[i]!.slice(0, 12));
  });
});
