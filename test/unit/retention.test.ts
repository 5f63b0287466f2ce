/**
 * The retention sweep's loop over its pruners (src/retention.ts): each table until a batch
 * comes back short, in order, resting between full batches when asked (the server's sweep),
 * and stopping between batches when told to (a shutdown).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PRUNE_BATCH, pruneAll, type Pruner } from '../../src/retention.js';

/** A table that gives `batches` answers in turn, and records each call. */
function table(name: string, batches: number[], calls: string[]): Pruner {
  const left = [...batches];
  return {
    table: name,
    prune: async (limit) => {
      calls.push(`${name}:${limit}`);
      return left.shift() ?? 0;
    },
  };
}

afterEach(() => vi.useRealTimers());

describe('pruneAll', () => {
  it('empties each table in turn, a batch at a time, until one comes back short', async () => {
    const calls: string[] = [];
    const deleted = await pruneAll([
      table('a', [PRUNE_BATCH, PRUNE_BATCH, 3], calls),
      table('b', [0], calls),
    ]);
    expect(deleted).toEqual({ a: 2 * PRUNE_BATCH + 3, b: 0 });
    expect(calls).toEqual([
      `a:${PRUNE_BATCH}`,
      `a:${PRUNE_BATCH}`,
      `a:${PRUNE_BATCH}`,
      `b:${PRUNE_BATCH}`,
    ]);
  });

  it('rests after each full batch when asked, and not after a short one', async () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    const done = pruneAll([table('a', [PRUNE_BATCH, 5], calls), table('b', [1], calls)], {
      restMs: 50,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual([`a:${PRUNE_BATCH}`]);
    await vi.advanceTimersByTimeAsync(49);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    // The short batch ends table a; b starts at once.
    expect(calls).toEqual([`a:${PRUNE_BATCH}`, `a:${PRUNE_BATCH}`, `b:${PRUNE_BATCH}`]);
    expect(await done).toEqual({ a: PRUNE_BATCH + 5, b: 1 });
  });

  it('stops between batches once told to', async () => {
    const calls: string[] = [];
    let stop = false;
    const pruner = table('a', [PRUNE_BATCH, PRUNE_BATCH, PRUNE_BATCH], calls);
    const deleted = await pruneAll(
      [{ table: 'a', prune: async (limit) => ((stop = true), pruner.prune(limit)) }],
      { stopped: () => stop },
    );
    expect(calls).toHaveLength(1);
    expect(deleted).toEqual({ a: PRUNE_BATCH });
  });
});
