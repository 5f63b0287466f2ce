/**
 * The limit on the log line of confirmations a seller's budget withheld (src/mail/withheld-log.ts),
 * as pure logic on a clock of the test's: the first occurrence of a key is logged at once,
 * then at most one line per key every `everyMs` with the count since its previous line; the
 * keys remembered never pass `maxKeys`, whatever the number of keys.
 */
import { describe, expect, it } from 'vitest';
import { logLimiter, withheldLog } from '../../src/mail/withheld-log.js';

const MINUTE = 60_000;

function clocked(maxKeys = 100, everyMs = 10 * MINUTE) {
  let now = 0;
  const limiter = logLimiter({ everyMs, maxKeys, now: () => now });
  return {
    limiter,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('logLimiter', () => {
  it('logs a key’s first occurrence, then once an interval with the count since', () => {
    const { limiter, advance } = clocked();
    expect(limiter.hit('s1')).toBe(1);
    for (let i = 0; i < 999; i++) {
      advance(500);
      expect(limiter.hit('s1')).toBeUndefined();
    }
    // 999 waiting, 499.5 s in: the interval ends at 600 s.
    advance(100 * 1000 + 500);
    expect(limiter.hit('s1')).toBe(1000);
    expect(limiter.hit('s1')).toBeUndefined();
    advance(10 * MINUTE);
    expect(limiter.hit('s1')).toBe(2);
  });

  it('keeps each key to its own interval', () => {
    const { limiter, advance } = clocked();
    expect(limiter.hit('s1')).toBe(1);
    advance(MINUTE);
    expect(limiter.hit('s2')).toBe(1);
    expect(limiter.hit('s1')).toBeUndefined();
    advance(9 * MINUTE);
    expect(limiter.hit('s1')).toBe(2);
    expect(limiter.hit('s2')).toBeUndefined();
    advance(MINUTE);
    expect(limiter.hit('s2')).toBe(2);
  });

  it('logs at once a key quiet for an interval', () => {
    const { limiter, advance } = clocked();
    expect(limiter.hit('s1')).toBe(1);
    advance(3 * 60 * MINUTE);
    expect(limiter.hit('s1')).toBe(1);
  });

  it('waits when the clock goes back, rather than log every occurrence', () => {
    const { limiter, advance } = clocked();
    expect(limiter.hit('s1')).toBe(1);
    advance(-5 * MINUTE);
    expect(limiter.hit('s1')).toBeUndefined();
    advance(15 * MINUTE);
    expect(limiter.hit('s1')).toBe(2);
  });

  it('remembers at most maxKeys keys, however many come', () => {
    const { limiter, advance } = clocked(50);
    for (let i = 0; i < 10_000; i++) {
      limiter.hit(`seller-${i}`);
      limiter.hit(`seller-${i}`);
      expect(limiter.size).toBeLessThanOrEqual(50);
      advance(1);
    }
    expect(limiter.size).toBe(50);
    // The newest are remembered (their second occurrence waits), the oldest forgotten.
    expect(limiter.hit('seller-9999')).toBeUndefined();
    expect(limiter.hit('seller-0')).toBe(1);
  });

  it('sweeps keys past their interval with nothing untold, keeping the map small', () => {
    const { limiter, advance } = clocked(1000);
    for (let i = 0; i < 100; i++) limiter.hit(`seller-${i}`);
    expect(limiter.size).toBe(100);
    advance(10 * MINUTE);
    limiter.hit('another');
    expect(limiter.size).toBe(1);
  });

  it('keeps a key with an untold count until its next line tells it', () => {
    const { limiter, advance } = clocked(1000);
    limiter.hit('s1');
    limiter.hit('s1');
    limiter.hit('s2');
    advance(10 * MINUTE);
    limiter.hit('s3');
    // s1 has one untold: kept (and s2 behind it, the sweep stopping at s1).
    expect(limiter.size).toBe(3);
    expect(limiter.hit('s1')).toBe(2);
  });
});

describe('withheldLog', () => {
  it('warns with the seller’s id and the count, nothing else', () => {
    const lines: [object, string][] = [];
    let now = 0;
    const withheld = withheldLog(
      { warn: ((fields: object, message: string) => lines.push([fields, message])) as never },
      { now: () => now },
    );
    for (let i = 0; i < 100; i++) withheld('seller-a');
    withheld('seller-b');
    now += 10 * MINUTE;
    withheld('seller-a');
    expect(lines).toEqual([
      [{ sellerId: 'seller-a', withheld: 1 }, expect.stringContaining('daily budget')],
      [{ sellerId: 'seller-b', withheld: 1 }, expect.stringContaining('daily budget')],
      [{ sellerId: 'seller-a', withheld: 100 }, expect.stringContaining('daily budget')],
    ]);
  });
});
