/**
 * Rate limits of publishable keys (checkout). A publishable key is public (it sits in web
 * pages), so its traffic is counted per key (all the pages embedding it) and per key and
 * client address (one visitor, or one abuser), in fixed windows, in Redis when configured
 * (shared by every instance; counters.ts says what happens while it is away). Counted before the key is looked up, like the general limit.
 * (The general limit, http/rate-limit.ts, still applies per client address on top.)
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.js';
import { expiringCounters } from './counters.js';
import type { SharedRedis } from './redis.js';

export interface CheckoutLimits {
  perKey: number;
  perAddress: number;
  windowMs: number;
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

export function checkoutLimitHook(limits: CheckoutLimits, redis?: SharedRedis) {
  const counters = expiringCounters(redis, 'checkout-limit:');
  return (request: FastifyRequest): Promise<void> | undefined => {
    const key = request.headers['x-publishable-key'];
    if (typeof key !== 'string' || key === '') return undefined;
    return countHits(limits, counters, digest(key), request.ip);
  };
}

async function countHits(
  limits: CheckoutLimits,
  counters: ReturnType<typeof expiringCounters>,
  id: string,
  ip: string,
): Promise<void> {
  const checks: [number, string][] = [
    [limits.perKey, `k:${id}`],
    [limits.perAddress, `a:${id}:${ip}`],
  ];
  for (const [max, counter] of checks) {
    if (max === 0) continue;
    const { count, ttlMs } = await counters.hit(counter, limits.windowMs);
    if (count > max) {
      throw new DomainError(
        'rate_limited',
        `Rate limit of ${max} requests per ${Math.round(limits.windowMs / 1000)} s with this publishable key reached; retry later.`,
        { retryAfter: Math.max(1, Math.ceil(ttlMs / 1000)) },
      );
    }
  }
}
