/**
 * Rate limiting per credential (per IP for anonymous calls), before authentication so
 * that floods of bad credentials are limited too. With `REDIS_URL` the counters live in
 * Redis and are shared by every instance.
 */
import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { DomainError } from '../domain/errors.js';

const EXEMPT = new Set(['/healthz', '/readyz']);

/** A key per credential that never stores the credential itself. */
function credentialKey(request: FastifyRequest): string {
  const query = (request.query as Record<string, unknown> | undefined)?.apiKey;
  const credential =
    request.headers['x-api-key'] ??
    (typeof query === 'string' ? query : undefined) ??
    request.headers.authorization;
  if (typeof credential === 'string' && credential !== '') {
    return 'c:' + createHash('sha256').update(credential).digest('base64url').slice(0, 22);
  }
  return 'ip:' + request.ip;
}

/** The Redis client shared by the rate limit and the authentication throttle, if configured. */
export function openRedis(app: FastifyInstance, config: Config): Redis | undefined {
  if (!config.redisUrl) return undefined;
  const redis = new Redis(config.redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1 });
  // Errors surface on the commands (and are tolerated there); the client reconnects.
  redis.on('error', () => undefined);
  app.addHook('onClose', async () => void (await redis.quit().catch(() => undefined)));
  return redis;
}

export async function registerRateLimit(
  app: FastifyInstance,
  config: Config,
  redis: Redis | undefined,
): Promise<void> {
  if (config.rateLimit.max === 0) return;
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis } : {}),
    // A broken Redis must not take the API down with it.
    skipOnError: true,
    enableDraftSpec: true,
  });
  app.addHook(
    'onRequest',
    app.rateLimit({
      max: config.rateLimit.max,
      timeWindow: config.rateLimit.windowMs,
      keyGenerator: credentialKey,
      allowList: (request) => EXEMPT.has(request.url.split('?')[0] ?? ''),
      errorResponseBuilder: (_request, context) =>
        new DomainError(
          'rate_limited',
          `Rate limit of ${context.max} requests per ${context.after} reached; retry later.`,
        ),
    }),
  );
}
