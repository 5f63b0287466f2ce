/**
 * The rule for a Redis that is away (src/http/redis.ts, src/http/counters.ts): the breaker
 * opens on a failure, lets one probe through after the retry period and closes on success;
 * the counters answer from this process while it is open, and keep the stricter count when
 * Redis is back.
 */
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { expiringCounters } from '../../../src/http/counters.js';
import { createBreaker } from '../../../src/http/redis.js';

const quiet = { warn: () => undefined, info: () => undefined };

describe('the Redis breaker', () => {
  it('opens on a failure, probes once after the retry period, closes on success', () => {
    let now = 0;
    const breaker = createBreaker(1000, quiet, () => now);
    expect(breaker.allow()).toBe(true);
    breaker.failed(new Error('down'));
    expect(breaker.state).toBe('open');
    now = 999;
    expect(breaker.allow()).toBe(false);
    now = 1000;
    expect(breaker.allow()).toBe(true);
    expect(breaker.state).toBe('probing');
    // While the probe is out, everyone else uses the fallback.
    expect(breaker.allow()).toBe(false);
    breaker.failed(new Error('still down'));
    expect(breaker.state).toBe('open');
    now = 2000;
    expect(breaker.allow()).toBe(true);
    breaker.succeeded();
    expect(breaker.state).toBe('closed');
    expect(breaker.allow()).toBe(true);
  });

  it('says once that Redis is away and once that it is back', () => {
    const said: string[] = [];
    const log = {
      warn: (_: unknown, msg: string) => said.push(msg),
      info: (msg: string) => said.push(msg),
    };
    let now = 0;
    const breaker = createBreaker(10, log as never, () => now);
    breaker.failed(new Error('down'));
    now = 20;
    breaker.allow();
    breaker.failed(new Error('down'));
    breaker.succeeded();
    breaker.succeeded();
    expect(said).toEqual([
      expect.stringMatching(/unreachable/),
      expect.stringMatching(/answers again/),
    ]);
  });
});

/** A Redis whose every command fails, or succeeds with the given transaction replies. */
function fakeRedis(behaviour: { fail: boolean; replies?: [Error | null, unknown][] }) {
  let calls = 0;
  const exec = async () => {
    calls += 1;
    if (behaviour.fail) throw new Error("Stream isn't writeable");
    return behaviour.replies ?? null;
  };
  const chain: Record<string, unknown> = {};
  for (const name of ['incr', 'pexpire', 'pttl', 'get']) chain[name] = () => chain;
  chain.exec = exec;
  const client = { multi: () => chain, set: exec, del: exec } as unknown as Redis;
  return { client, calls: () => calls };
}

describe('counters through the breaker', () => {
  it('count in this process while Redis fails, asking it only once per retry period', async () => {
    const redis = fakeRedis({ fail: true });
    const counters = expiringCounters(
      { client: redis.client, breaker: createBreaker(60_000, quiet) },
      'p:',
    );
    for (let i = 1; i <= 5; i++) expect((await counters.hit('a', 10_000)).count).toBe(i);
    expect((await counters.get('a'))?.count).toBe(5);
    expect(redis.calls()).toBe(1);
  });

  it('treat a failed command inside a transaction as a failure, never as a count', async () => {
    const redis = fakeRedis({
      fail: false,
      replies: [
        [new Error('OOM'), null],
        [null, 1],
        [null, 1000],
      ],
    });
    const breaker = createBreaker(60_000, quiet);
    const counters = expiringCounters({ client: redis.client, breaker }, 'p:');
    expect(await counters.hit('a', 10_000)).toMatchObject({ count: 1 });
    expect(breaker.state).toBe('open');
  });

  it('keep the stricter count when Redis returns', async () => {
    const behaviour: { fail: boolean; replies?: [Error | null, unknown][] } = { fail: true };
    const redis = fakeRedis(behaviour);
    let now = 0;
    const breaker = createBreaker(100, quiet, () => now);
    const counters = expiringCounters({ client: redis.client, breaker }, 'p:');
    for (let i = 0; i < 4; i++) await counters.hit('a', 60_000);
    Object.assign(behaviour, {
      fail: false,
      replies: [
        [null, 1],
        [null, 1],
        [null, 60_000],
      ],
    });
    now = 100;
    expect((await counters.hit('a', 60_000)).count).toBe(4);
    expect(breaker.state).toBe('closed');
  });
});
