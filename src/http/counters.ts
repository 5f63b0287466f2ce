/**
 * Counters that expire, for every limit of the service (the rate limit, the checkout limit,
 * the failed-authentication throttle): in Redis when it is configured and answering (shared
 * by every instance), else in this process. The rule for a Redis that is away is here, once:
 * a call goes to Redis only when the breaker (redis.ts) allows it, and any failure or refusal
 * is answered at once from this process's counts, so the limits hold per instance until
 * Redis returns (docs/operations.md). While local counts from an outage are alive they are
 * combined with Redis's, the stricter winning, so an address limited during the outage stays
 * limited when Redis comes back.
 */
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { SharedRedis } from './redis.js';

export interface Count {
  count: number;
  ttlMs: number;
}

export interface Counters {
  /** Adds one; the count expires `ttlMs` after the first hit. Returns count and ms left. */
  hit(key: string, ttlMs: number): Promise<Count>;
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
  return {
    async hit(key, ttlMs) {
      const entry = live(key);
      if (!entry) store(key, 1, ttlMs);
      else entry.count += 1;
      const now = live(key)!;
      return { count: now.count, ttlMs: now.expires - Date.now() };
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

function redisCounters(redis: Redis, prefix: string): Counters {
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
  return {
    hit: (key, ttlMs) =>
      either(
        async () => stricter(await shared.hit(key, ttlMs), await local.get(key))!,
        () => local.hit(key, ttlMs),
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
