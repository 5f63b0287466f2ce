/**
 * Counters that expire, for every limit of the service (the rate limit, the checkout limit,
 * the failed-authentication throttle): in Redis when it is configured and answering (shared
 * by every instance), else in this process. The rule for a Redis that is away is here, once:
 * a call goes to Redis only when the breaker (redis.ts) allows it, and any failure or refusal
 * is answered at once from this process's counts, so the limits hold per instance until
 * Redis returns (docs/operations.md). While local counts from an outage are alive they are
 * combined with Redis's, the stricter winning, so an address limited during the outage stays
 * limited when Redis comes back. A reservation (`reserve`) is given back to the store that
 * counted it, and only while the window it was counted in lasts: never to a later window.
 */
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { SharedRedis } from './redis.js';

export interface Count {
  count: number;
  ttlMs: number;
}

/** One counted by `reserve`, which `release` takes back (the thing it stood for did not happen). */
export interface Reservation extends Count {
  release(): Promise<void>;
}

export interface Counters {
  /** Adds one; the count expires `ttlMs` after the first hit. Returns count and ms left. */
  hit(key: string, ttlMs: number): Promise<Count>;
  /** `hit`, and a way to take that one back: a limit that counts before the work is done. */
  reserve(key: string, ttlMs: number): Promise<Reservation>;
  get(key: string): Promise<Count | undefined>;
  set(key: string, value: number, ttlMs: number): Promise<void>;
  remove(key: string): Promise<void>;
}

const MAX_LOCAL_KEYS = 100_000;

export function localCounters(): Counters {
  const entries = new Map<string, { count: number; expires: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.expires <= Date.now()) entries.delete(key);
    return entries.get(key);
  };
  const store = (key: string, count: number, ttlMs: number) => {
    // Bounded: the oldest keys go first (Maps iterate in insertion order).
    if (entries.size >= MAX_LOCAL_KEYS) entries.delete(entries.keys().next().value as string);
    entries.set(key, { count, expires: Date.now() + ttlMs });
  };
  const hit = async (key: string, ttlMs: number): Promise<Count> => {
    const entry = live(key);
    if (!entry) store(key, 1, ttlMs);
    else entry.count += 1;
    const now = live(key)!;
    return { count: now.count, ttlMs: now.expires - Date.now() };
  };
  return {
    hit,
    async reserve(key, ttlMs) {
      const count = await hit(key, ttlMs);
      const counted = live(key);
      return {
        ...count,
        async release() {
          // The same window's entry only: a new window never pays for an old one.
          if (counted && live(key) === counted && counted.count > 0) counted.count -= 1;
        },
      };
    },
    async get(key) {
      const entry = live(key);
      return entry && { count: entry.count, ttlMs: entry.expires - Date.now() };
    },
    async set(key, value, ttlMs) {
      store(key, value, ttlMs);
    },
    async remove(key) {
      entries.delete(key);
    },
  };
}

/** The replies of a transaction; a command that failed inside it fails the whole call. */
async function replies(transaction: Promise<[Error | null, unknown][] | null>): Promise<unknown[]> {
  const results = await transaction;
  if (!results) throw new Error('Redis transaction aborted');
  return results.map(([error, value]) => {
    if (error) throw error;
    return value;
  });
}

/** Takes one back if the count still exists (DECR alone would revive an expired one, forever). */
const RELEASE = `local n = tonumber(redis.call('get', KEYS[1]))
if n and n > 0 then return redis.call('decr', KEYS[1]) end
return 0`;

function redisCounters(
  redis: Redis,
  prefix: string,
): Omit<Counters, 'reserve'> & {
  release(key: string): Promise<void>;
} {
  return {
    async hit(key, ttlMs) {
      const [count, , ttl] = await replies(
        redis
          .multi()
          .incr(prefix + key)
          .pexpire(prefix + key, ttlMs, 'NX')
          .pttl(prefix + key)
          .exec(),
      );
      return { count: Number(count), ttlMs: Math.max(0, Number(ttl)) };
    },
    async release(key) {
      await redis.eval(RELEASE, 1, prefix + key);
    },
    async get(key) {
      const [value, ttl] = await replies(
        redis
          .multi()
          .get(prefix + key)
          .pttl(prefix + key)
          .exec(),
      );
      return value === null ? undefined : { count: Number(value), ttlMs: Math.max(0, Number(ttl)) };
    },
    async set(key, value, ttlMs) {
      await redis.set(prefix + key, value, 'PX', ttlMs);
    },
    async remove(key) {
      await redis.del(prefix + key);
    },
  };
}

const stricter = (a: Count | undefined, b: Count | undefined): Count | undefined =>
  !a || !b ? (a ?? b) : { count: Math.max(a.count, b.count), ttlMs: Math.max(a.ttlMs, b.ttlMs) };

/** Counters under `prefix`: through the breaker to Redis when configured, else local only. */
export function expiringCounters(redis: SharedRedis | undefined, prefix: string): Counters {
  const local = localCounters();
  if (!redis) return local;
  const shared = redisCounters(redis.client, prefix);
  const { breaker } = redis;
  const either = async <T>(remote: () => Promise<T>, fallback: () => Promise<T>): Promise<T> => {
    if (!breaker.allow()) return fallback();
    try {
      const result = await remote();
      breaker.succeeded();
      return result;
    } catch (error) {
      breaker.failed(error);
      return fallback();
    }
  };
  const withLocal = async (key: string, counted: Count) => stricter(counted, await local.get(key))!;
  /** Counted in Redis, so given back there, while the window it was counted in lasts. */
  const sharedReservation = async (key: string, ttlMs: number): Promise<Reservation> => {
    const counted = await shared.hit(key, ttlMs);
    const ends = Date.now() + counted.ttlMs;
    const release = async () => {
      if (Date.now() >= ends) return;
      // A release that cannot reach Redis leaves the count for its window: never too few.
      await either(
        () => shared.release(key),
        async () => undefined,
      );
    };
    return { ...(await withLocal(key, counted)), release };
  };
  return {
    hit: (key, ttlMs) =>
      either(
        async () => withLocal(key, await shared.hit(key, ttlMs)),
        () => local.hit(key, ttlMs),
      ),
    reserve: (key, ttlMs) =>
      either(
        () => sharedReservation(key, ttlMs),
        () => local.reserve(key, ttlMs),
      ),
    get: (key) =>
      either(
        async () => stricter(await shared.get(key), await local.get(key)),
        () => local.get(key),
      ),
    set: (key, value, ttlMs) =>
      either(
        () => shared.set(key, value, ttlMs),
        () => local.set(key, value, ttlMs),
      ),
    remove: (key) =>
      either(
        async () => {
          await shared.remove(key);
          await local.remove(key);
        },
        () => local.remove(key),
      ),
  };
}

/** @fastify/rate-limit's store interface over these counters (fixed windows, like its own). */
export function rateLimitStore(counters: Counters): FastifyRateLimitStoreCtor {
  return class CountersStore implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      counters.hit(key, timeWindow).then(
        ({ count, ttlMs }) => callback(null, { current: count, ttl: ttlMs }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}
