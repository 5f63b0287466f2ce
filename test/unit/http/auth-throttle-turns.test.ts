/**
 * The password throttle's backoff (auth-throttle.ts) doubles with the passwords an address
 * actually tried on an account, whatever order a burst's attempts take their turns in. With
 * Redis and several instances, the turn can go to the last attempt of a burst: its own count
 * included every attempt sent with it (refused and given back since), and the wait it set
 * was 2^14 s, capped at 900 s, for what was the 5th wrong password: 1 s.
 */
import { describe, expect, it } from 'vitest';
import { localCounters, type Counters } from '../../../src/http/counters.js';
import { throttleOn } from '../../../src/http/auth-throttle.js';
import { DomainError } from '../../../src/domain/errors.js';

const options = { perAddress: 1000, perAccount: 1000, windowMs: 3_600_000 };
const ADDRESS = '198.51.100.7';
const EMAIL = 'owner@example.com';
const wrong = async () => false;

/** Local counters whose `turn` claims are answered in the reverse of the order asked. */
function turnsReversed(burst: number): Counters {
  const counters = localCounters();
  const waiting: (() => void)[] = [];
  return {
    ...counters,
    hit(key, ttlMs) {
      if (!key.startsWith('turn:') || waiting.length === burst) return counters.hit(key, ttlMs);
      return new Promise((resolve) => {
        waiting.push(() => void counters.hit(key, ttlMs).then(resolve));
        if (waiting.length === burst) for (const go of waiting.reverse()) go();
      });
    },
  };
}

const waitAfter = async (counters: Counters) => {
  const throttle = throttleOn(counters, options);
  try {
    await throttle.tryPassword(ADDRESS, EMAIL, wrong);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).extra.retryAfter;
  }
  throw new Error('the attempt after a failure was not made to wait');
};

describe('the password backoff', () => {
  it('waits 1 s after the 5th wrong password, even when a burst took its turns last-first', async () => {
    const burst = 15;
    const counters = turnsReversed(burst);
    const throttle = throttleOn(counters, options);
    for (let i = 0; i < 4; i++)
      expect(await throttle.tryPassword(ADDRESS, EMAIL, wrong)).toBe(false);
    const answers = await Promise.allSettled(
      Array.from({ length: burst }, () => throttle.tryPassword(ADDRESS, EMAIL, wrong)),
    );
    // One attempt of the burst was tried (its turn); every other one was refused untried.
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    expect(await waitAfter(counters)).toBe(1);
  });

  it('doubles with each password tried one after another (1 s, 2 s, 4 s ...)', async () => {
    const counters = localCounters();
    const waits: number[] = [];
    // Each wait is noted, not kept, so that the next password is tried at once.
    const noting: Counters = {
      ...counters,
      set: async (key, value, ttlMs) => {
        if (key.startsWith('wait:')) waits.push(ttlMs / 1000);
        else await counters.set(key, value, ttlMs);
      },
    };
    const throttle = throttleOn(noting, options);
    for (let i = 0; i < 8; i++)
      expect(await throttle.tryPassword(ADDRESS, EMAIL, wrong)).toBe(false);
    expect(waits).toEqual([1, 2, 4, 8]);
  });
});
