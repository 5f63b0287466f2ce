/**
 * Rate limiting per credential (per IP for anonymous calls), before authentication so
 * that floods of bad credentials are limited too. With `REDIS_URL` the counters live in
 * Redis and are shared by every instance; while it is away, in this process (counters.ts).
 */
import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { DomainError } from '../domain/errors.js';
import { isUnder } from './error-handler.js';
import { expiringCounters, rateLimitStore } from './counters.js';
import type { SharedRedis } from './redis.js';
import { addressKey } from './client-address.js';
import { queryDecodes } from './input-text.js';

const EXEMPT = new Set(['/healthz', '/readyz']);

/**
 * A key per credential that never stores the credential itself: the credential the route
 * authenticates with. Under a scope that authenticates its own way (`ownScopes`: OCTo's
 * `Authorization: Bearer`), that is the `Authorization` header alone; keyed on `X-API-KEY`
 * first there, a random one on each request was a fresh bucket each time.
 */
const credentialKey = (ownScopes: readonly string[]) => (request: FastifyRequest) => {
  // A malformed query is refused before authentication, so a credential beside it is never
  // checked: keyed on it, a random one a request was a fresh bucket each time.
  if (!queryDecodes(request.url)) return 'ip:' + addressKey(request.ip);
  const query = (request.query as Record<string, unknown> | undefined)?.apiKey;
  const credential = ownScopes.some((prefix) => isUnder(request.url, prefix))
    ? request.headers.authorization
    : (request.headers['x-api-key'] ??
      (typeof query === 'string' ? query : undefined) ??
      request.headers.authorization);
  if (typeof credential === 'string' && credential !== '') {
    return 'c:' + createHash('sha256').update(credential).digest('base64url').slice(0, 22);
  }
  return 'ip:' + addressKey(request.ip);
};

export async function registerRateLimit(
  app: FastifyInstance,
  config: Config,
  redis: SharedRedis | undefined,
  ownScopes: readonly string[],
): Promise<void> {
  if (config.rateLimit.max === 0) return;
  await app.register(rateLimit, {
    global: false,
    // The counters every limit uses: Redis through the breaker, this process's while it is away.
    store: rateLimitStore(expiringCounters(redis, 'rate-limit:')),
    // Those counters never fail; were one to, the request goes on rather than fail.
    skipOnError: true,
    enableDraftSpec: true,
  });
  app.addHook(
    'onRequest',
    app.rateLimit({
      max: config.rateLimit.max,
      timeWindow: config.rateLimit.windowMs,
      keyGenerator: credentialKey(ownScopes),
      allowList: (request) => EXEMPT.has(request.url.split('?')[0] ?? ''),
      errorResponseBuilder: (_request, context) =>
        new DomainError(
          'rate_limited',
          `Rate limit of ${context.max} requests per ${context.after} reached; retry later.`,
        ),
    }),
  );
}
