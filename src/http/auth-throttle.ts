/**
 * Failed authentications, throttled so that credentials cannot be guessed at speed, and so
 * that a stranger cannot lock an owner out (docs/security.md). A failed API key is counted
 * after its (cheap) lookup; a password attempt before its (expensive) hash, and forgiven when
 * the password is right, so that attempts sent at once are held to the limits below as
 * attempts sent one after another are (counted after the hash, all of a burst passed the
 * check before any was counted):
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
import { expiringCounters, type Counters, type Reservation } from './counters.js';
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
/** How long a turn lasts if its holder never gives it up (a crash): far above any hash. */
const TURN_MS = 60_000;
const TURN_RETRY_MS = 1000;

const hash = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

const tooMany = (retryAfterMs: number) =>
  rateLimited('Too many failed sign-ins; wait before trying again.', retryAfterMs);

export interface AuthThrottle {
  /** API keys (they name no account): throws 429 once the address failed too often. */
  check(address: string): Promise<void>;
  failed(address: string): Promise<void>;
  /**
   * One password attempt for `email` from `address`, counted before `verify` (the hash) runs
   * and forgiven when it says the password is right; throws 429 when the attempt must wait.
   */
  tryPassword(address: string, email: string, verify: () => Promise<boolean>): Promise<boolean>;
}

/** The counters' keys of an attempt on the account `email` from the address `ip`. */
const keys = (ip: string, email: string) => {
  // An IPv6 client is its /64 (client-address.ts).
  const address = addressKey(ip);
  const account = hash(email.trim().toLowerCase());
  return {
    address: `ip:${address}`,
    account: `acct:${account}`,
    pair: `pair:${account}:${address}`,
    wait: `wait:${account}:${address}`,
    turn: `turn:${account}:${address}`,
    tested: `tested:${account}:${address}`,
    known: `known:${account}:${address}`,
  };
};

/**
 * Counts the attempt everywhere it is limited, refusing (everything given back) past a
 * limit. From the BACKOFF_FROM-th attempt of a pair on, one at a time (`turn`, taken before
 * `wait` is read, and a failure sets `wait` before giving `turn` up), so guesses sent at
 * once wait their turn as guesses sent one after another do.
 */
async function beginAttempt(
  counters: Counters,
  options: ThrottleOptions,
  k: ReturnType<typeof keys>,
) {
  const taken: Reservation[] = [];
  const refuse = async (retryAfterMs: number): Promise<never> => {
    await Promise.all(taken.map((one) => one.release()));
    throw tooMany(retryAfterMs);
  };
  const byAddress = await counters.reserve(k.address, options.windowMs);
  taken.push(byAddress);
  if (byAddress.count > options.perAddress) await refuse(byAddress.ttlMs);
  const byAccount = await counters.reserve(k.account, HOUR);
  taken.push(byAccount);
  if (byAccount.count > options.perAccount && !(await counters.get(k.known))) {
    await refuse(byAccount.ttlMs);
  }
  const pair = await counters.reserve(k.pair, options.windowMs);
  taken.push(pair);
  // Only its holder gives a turn up (by removing it): a refused one never touches it.
  const turn = pair.count >= BACKOFF_FROM ? await counters.hit(k.turn, TURN_MS) : undefined;
  if (turn && turn.count > 1) await refuse(TURN_RETRY_MS);
  const wait = await counters.get(k.wait);
  if (wait) {
    if (turn) await counters.remove(k.turn);
    await refuse(wait.ttlMs);
  }
  const endTurn = async () => {
    if (turn) await counters.remove(k.turn);
  };
  return {
    async failed() {
      // The wait doubles with the pair's passwords actually tried, not with `pair.count`:
      // that counted attempts sent at once and refused later, and with several instances
      // the turn can go to the last of a burst (15 at once waited 900 s, not 1 s).
      const tested = await counters.hit(k.tested, options.windowMs);
      if (tested.count >= BACKOFF_FROM) {
        const seconds = Math.min(2 ** (tested.count - BACKOFF_FROM), BACKOFF_CAP_S);
        await counters.set(k.wait, 1, seconds * 1000);
      }
      await endTurn();
    },
    async succeeded() {
      await counters.set(k.known, 1, KNOWN_ADDRESS_MS);
      await Promise.all([counters.remove(k.pair), counters.remove(k.tested)]);
      await endTurn();
      await Promise.all([byAddress.release(), byAccount.release()]);
    },
    /** Nothing was learnt (an error, not an answer): as if it had not been tried. */
    async abandoned() {
      await endTurn();
      await Promise.all(taken.map((one) => one.release()));
    },
  };
}

export function createAuthThrottle(options: ThrottleOptions, redis?: SharedRedis): AuthThrottle {
  if (options.perAddress === 0) {
    return {
      check: async () => undefined,
      failed: async () => undefined,
      tryPassword: (_address, _email, verify) => verify(),
    };
  }
  return throttleOn(expiringCounters(redis, 'auth-throttle:'), options);
}

/** The throttle over `counters` (exported for its unit test, which orders their calls). */
export function throttleOn(counters: Counters, options: ThrottleOptions): AuthThrottle {
  return {
    async check(address) {
      const byAddress = await counters.get(`ip:${addressKey(address)}`);
      if (byAddress && byAddress.count >= options.perAddress) throw tooMany(byAddress.ttlMs);
    },

    async failed(address) {
      await counters.hit(`ip:${addressKey(address)}`, options.windowMs);
    },

    async tryPassword(address, email, verify) {
      const attempt = await beginAttempt(counters, options, keys(address, email));
      let right: boolean;
      try {
        right = await verify();
      } catch (error) {
        await attempt.abandoned();
        throw error;
      }
      await (right ? attempt.succeeded() : attempt.failed());
      return right;
    },
  };
}
