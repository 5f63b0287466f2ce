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
 * instance shares them), else, or while Redis is away, in this process (counters.ts).
 */
import { createHash } from 'node:crypto';
import { rateLimited } from '../domain/errors.js';
import { expiringCounters } from './counters.js';
import type { SharedRedis } from './redis.js';
import { addressKey } from './client-address.js';

export interface ThrottleOptions {
  /** Failures per client address per window; 0 turns the throttle off. */
  perAddress: number;
  /** Failures per account per hour, from addresses that never signed in to it. */
  perAccount: number;
  windowMs: number;
}

const HOUR = 3_600_000;
const KNOWN_ADDRESS_MS = 30 * 24 * HOUR;
const BACKOFF_FROM = 5;
const BACKOFF_CAP_S = 900;

const hash = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

const tooMany = (retryAfterMs: number) =>
  rateLimited('Too many failed sign-ins; wait before trying again.', retryAfterMs);

export interface AuthThrottle {
  /** Throws 429 if this attempt must wait; `email` for Basic, undefined for API keys. */
  check(address: string, email?: string): Promise<void>;
  failed(address: string, email?: string): Promise<void>;
  succeeded(address: string, email: string): Promise<void>;
}

export function createAuthThrottle(options: ThrottleOptions, redis?: SharedRedis): AuthThrottle {
  if (options.perAddress === 0) {
    return {
      check: async () => undefined,
      failed: async () => undefined,
      succeeded: async () => undefined,
    };
  }
  const counters = expiringCounters(redis, 'auth-throttle:');
  const keys = (ip: string, email?: string) => {
    // An IPv6 client is its /64 (client-address.ts).
    const address = addressKey(ip);
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
