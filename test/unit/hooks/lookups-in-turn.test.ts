/**
 * Webhook host lookups in turn (src/modules/hooks/lookups-in-turn.ts): never more than
 * `width` at once, the others started as those end, and a caller answered with a timeout
 * once its deadline passes, whether it was waiting or its lookup hangs.
 */
import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { lookupsInTurn, type LookupAll } from '../../../src/modules/hooks/lookups-in-turn.js';

type Answer = Parameters<LookupAll>[2];

/** A resolver whose lookups end only when the test says. */
function heldResolver() {
  const pending = new Map<string, Answer>();
  let most = 0;
  const lookup: LookupAll = (hostname, _options, answer) => {
    pending.set(hostname, answer);
    most = Math.max(most, pending.size);
  };
  const finish = (hostname: string) => {
    const answer = pending.get(hostname)!;
    pending.delete(hostname);
    answer(null, [{ address: '203.0.113.1', family: 4 }]);
  };
  return { lookup, finish, pending, most: () => most };
}

const ask = (lookup: LookupAll, hostname: string) =>
  new Promise<{ error: NodeJS.ErrnoException | null; addresses: LookupAddress[] }>((resolve) =>
    lookup(hostname, {}, (error, addresses) => resolve({ error, addresses })),
  );

describe('lookupsInTurn', () => {
  it('runs at most `width` lookups at once, starting the next as one ends', async () => {
    const held = heldResolver();
    const inTurn = lookupsInTurn(held.lookup, 2, 10_000);
    const answers = ['a', 'b', 'c', 'd'].map((name) => ask(inTurn, name));
    expect([...held.pending.keys()]).toEqual(['a', 'b']);
    held.finish('a');
    expect([...held.pending.keys()]).toEqual(['b', 'c']);
    held.finish('b');
    held.finish('c');
    held.finish('d');
    const all = await Promise.all(answers);
    expect(all.map((a) => a.addresses[0]?.address)).toEqual(Array(4).fill('203.0.113.1'));
    expect(held.most()).toBe(2);
  });

  it('answers a timeout at the deadline, to a hung lookup and to one still waiting', async () => {
    const held = heldResolver();
    const inTurn = lookupsInTurn(held.lookup, 1, 50);
    const [hung, waiting] = await Promise.all([ask(inTurn, 'hung'), ask(inTurn, 'waiting')]);
    expect(hung.error?.code).toBe('ETIMEOUT');
    expect(waiting.error?.code).toBe('ETIMEOUT');
    // The hung lookup ends late: its answer goes nowhere, and the one that timed out
    // waiting is never looked up.
    held.finish('hung');
    expect([...held.pending.keys()]).toEqual([]);
  });
});
