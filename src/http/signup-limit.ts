/**
 * Sign-ups per client address (`SIGNUPS_PER_ADDRESS` an hour), whatever credential the
 * request carries. The general limit counts per credential, and every sign-up answers with a
 * new key: a few streams, each sending its last account's key, signed up a thousand accounts
 * a minute apiece, squatting addresses and keeping the password-hash queue full (so real
 * sign-ins and password changes answered 503). Attempts count, refused ones included: each
 * costs a password hash. In Redis when configured, like the other limits (counters.ts).
 */
import type { FastifyRequest } from 'fastify';
import { rateLimited } from '../domain/errors.js';
import { expiringCounters } from './counters.js';
import type { SharedRedis } from './redis.js';
import { routeOf } from './route-of.js';
import { addressKey } from './client-address.js';

const HOUR_MS = 3_600_000;

export function signupLimitHook(perAddress: number, redis?: SharedRedis) {
  const counters = expiringCounters(redis, 'signup-limit:');
  return (request: FastifyRequest): Promise<void> | undefined => {
    if (perAddress === 0 || request.method !== 'POST') return undefined;
    if (routeOf(request).url !== '/api/users') return undefined;
    return counters.hit(`a:${addressKey(request.ip)}`, HOUR_MS).then(({ count, ttlMs }) => {
      if (count > perAddress) {
        throw rateLimited(
          `At most ${perAddress} sign-ups an hour from one address; retry later.`,
          ttlMs,
        );
      }
    });
  };
}
