/**
 * Failed authentications, throttled so that credentials cannot be guessed at speed, and so
 * that a stranger cannot lock an owner out (docs/security.md). Checked before the expensive
 * part (the key lookup, the password hash), counted after a failure:
 *
 * - per client address: after `perAddress` failures within the window, that address's
 *   failed API keys answer 429 and its Basic sign-ins are refused before the password is
 *   hashed, until the window ends. This is what stops guessing API keys, which name no
 *   account (a valid key always works: it is not a guess);
 * - per account and address (Basic): from the 5th failure on, that address waits before
 *   trying that account again, doubling each time (1 s, 2 s, 4 s ... up to 15 minutes);
 * - per account, from all addresses: past `perAccount` failures in an hour, Basic for that
 *   account is refused, except from addresses that signed in to it successfully in the last
 *   30 days. Its owner keeps its known addresses and its API key.
 *
 * Accounts are keyed by a hash of the email whether or not it is registered, so throttling
 * tells nothing about which emails exist. Counters live in Redis when it is configured (every
 * instance shares them), else in this process.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { DomainError } from '../domain/errors.js';

export interface ThrottleOptions {
  /** Failures per client address per window; 0 turns the throttle off. */
  perAddress: number;
  /** Failures per account per hour, from addresses that never signed in to it. */
  perAccount: number;
  windowMs: number;
}

/** Counters that expire: in Redis (shared by instances) or in this process. */
export interface Counters {
  /** Adds one; the count expires `ttlMs` after the first hit. Returns count and ms left. */
  hit(key: string, ttlMs: number): Promise<{ count: number; ttlMs: number }>;
  get(key: string): Promise<{ count: number; ttlMs: number } | undefined>;
  set(key: string, value: number, ttlMs: number): Promise<void>;
  remove(key: string): Promise<void>;
}

const MAX_LOCAL_KEYS = 100_000;

function localCounters(): Counters {
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

function redisCounters(redis: Redis, prefix: string): Counters {
  return {
    async hit(key, ttlMs) {
      const replies = (await redis
        .multi()
        .incr(prefix + key)
        .pexpire(prefix + key, ttlMs, 'NX')
        .pttl(prefix + key)
        .exec()) as [Error | null, number][];
      return { count: replies[0]![1], ttlMs: Math.max(0, replies[2]![1]) };
    },
    async get(key) {
      const replies = (await redis
        .multi()
        .get(prefix + key)
        .pttl(prefix + key)
        .exec()) as [Error | null, string | number | null][];
      const value = replies[0]![1];
      const ttl = Number(replies[1]![1]);
      return value === null ? undefined : { count: Number(value), ttlMs: Math.max(0, ttl) };
    },
    async set(key, value, ttlMs) {
      await redis.set(prefix + key, value, 'PX', ttlMs);
    },
    async remove(key) {
      await redis.del(prefix + key);
    },
  };
}

/**
 * Counters in Redis when it is configured, else in this process; a broken Redis must not
 * take the API down, so each failed Redis call falls back to this process's counts.
 */
export function expiringCounters(redis: Redis | undefined, prefix: string): Counters {
  const shared = redis ? redisCounters(redis, prefix) : undefined;
  const local = localCounters();
  return shared
    ? {
        hit: (k, t) => shared.hit(k, t).catch(() => local.hit(k, t)),
        get: (k) => shared.get(k).catch(() => local.get(k)),
        set: (k, v, t) => shared.set(k, v, t).catch(() => local.set(k, v, t)),
        remove: (k) => shared.remove(k).catch(() => local.remove(k)),
      }
    : local;
}

const HOUR = 3_600_000;
const KNOWN_ADDRESS_MS = 30 * 24 * HOUR;
const BACKOFF_FROM = 5;
const BACKOFF_CAP_S = 900;

const hash = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

const tooMany = (retryAfterMs: number) =>
  new DomainError('rate_limited', 'Too many failed sign-ins; wait before trying again.', {
    retryAfter: Math.max(1, Math.ceil(retryAfterMs / 1000)),
  });

export interface AuthThrottle {
  /** Throws 429 if this attempt must wait; `email` for Basic, undefined for API keys. */
  check(address: string, email?: string): Promise<void>;
  failed(address: string, email?: string): Promise<void>;
  succeeded(address: string, email: string): Promise<void>;
}

export function createAuthThrottle(options: ThrottleOptions, redis?: Redis): AuthThrottle {
  if (options.perAddress === 0) {
    return {
      check: async () => undefined,
      failed: async () => undefined,
      succeeded: async () => undefined,
    };
  }
  const counters = expiringCounters(redis, 'auth-throttle:');
  const keys = (address: string, email?: string) => {
    const account = email === undefined ? undefined : hash(email.trim().toLowerCase());
    return {
      address: `ip:${address}`,
      account: account && `acct:${account}`,
      pair: account && `pair:${account}:${address}`,
      wait: account && `wait:${account}:${address}`,
      known: account && `known:${account}:${address}`,
    };
  };

  return {
    async check(address, email) {
      const k = keys(address, email);
      const byAddress = await counters.get(k.address);
      if (byAddress && byAddress.count >= options.perAddress) throw tooMany(byAddress.ttlMs);
      if (!k.account) return;
      const wait = await counters.get(k.wait!);
      if (wait) throw tooMany(wait.ttlMs);
      const byAccount = await counters.get(k.account);
      if (byAccount && byAccount.count >= options.perAccount && !(await counters.get(k.known!))) {
        throw tooMany(byAccount.ttlMs);
      }
    },

    async failed(address, email) {
      const k = keys(address, email);
      await counters.hit(k.address, options.windowMs);
      if (!k.account) return;
      await counters.hit(k.account, HOUR);
      const { count } = await counters.hit(k.pair!, options.windowMs);
      if (count >= BACKOFF_FROM) {
        const seconds = Math.min(2 ** (count - BACKOFF_FROM), BACKOFF_CAP_S);
        await counters.set(k.wait!, 1, seconds * 1000);
      }
    },

    async succeeded(address, email) {
      const k = keys(address, email);
      await counters.set(k.known!, 1, KNOWN_ADDRESS_MS);
      await counters.remove(k.pair!);
    },
  };
}
