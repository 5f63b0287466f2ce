/**
 * inTurns (src/db/in-turns.ts): every element read once, the answers in the list's order
 * whatever order the reads end in, never more than `width` in flight, and a failed read fails
 * the whole.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inTurns } from '../../src/db/in-turns.js';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('inTurns', () => {
  it('answers in order, each element read once, at most `width` at a time', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 6 }),
        async (delays, width) => {
          let inFlight = 0;
          let most = 0;
          const seen: number[] = [];
          const answers = await inTurns(delays, width, async (delay) => {
            inFlight++;
            most = Math.max(most, inFlight);
            await tick(delay);
            seen.push(delay);
            inFlight--;
            return delay * 10;
          });
          expect(answers).toEqual(delays.map((d) => d * 10));
          expect(seen).toHaveLength(delays.length);
          expect(most).toBeLessThanOrEqual(Math.min(width, Math.max(delays.length, 1)));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('fails when a read fails, and starts no read after it', async () => {
    const started: number[] = [];
    const read = async (n: number) => {
      started.push(n);
      await tick(1);
      if (n === 3) throw new Error('row 3');
      return n;
    };
    await expect(inTurns([1, 2, 3, 4, 5, 6, 7], 2, read)).rejects.toThrow('row 3');
    await tick(20);
    expect(started).toEqual([1, 2, 3, 4]);
  });
});
