/**
 * The one Redis client of an instance (rate limit, checkout limit, failed-authentication
 * throttle) and the circuit breaker in front of it. Redis only shares counters between
 * instances, so a request must never wait for it: the client has no offline queue (a
 * command while disconnected fails at once), a short command timeout, no resends, and
 * reconnects in the background; after a failure the breaker keeps callers away from Redis
 * for `retryMs`, then lets one call through as a probe. counters.ts decides what a caller
 * does instead (this process's counts).
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.js';

/** How long a (re)connection may take before it counts as failed; it runs in the background. */
const CONNECT_TIMEOUT_MS = 500;
/** A connection that is expecting replies and receives nothing for this long is dropped. */
const SOCKET_TIMEOUT_MS = 1000;

export type BreakerState = 'closed' | 'open' | 'probing';

export interface Breaker {
  /** Whether this call may ask Redis now (false: use the fallback, do not wait). */
  allow(): boolean;
  succeeded(): void;
  failed(error: unknown): void;
  readonly state: BreakerState;
}

export interface SharedRedis {
  client: Redis;
  breaker: Breaker;
}

/**
 * closed: every call asks Redis; one failure opens it. open: nobody asks until `retryMs` has
 * passed; then the next call is the probe (probing) while the others still use the fallback,
 * and its outcome closes or reopens the breaker. One failure is enough: the fallback is
 * always correct for this instance, and waiting costs every request in flight.
 */
export function createBreaker(
  retryMs: number,
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
  now: () => number = Date.now,
): Breaker {
  let state: BreakerState = 'closed';
  let since = 0;
  return {
    get state() {
      return state;
    },
    allow() {
      if (state === 'closed') return true;
      // A probe settles within the command timeout; one older than retryMs is presumed lost.
      if (now() - since < retryMs) return false;
      state = 'probing';
      since = now();
      return true;
    },
    succeeded() {
      if (state === 'closed') return;
      state = 'closed';
      log.info('Redis answers again: rate limits and throttles are shared between instances');
    },
    failed(error) {
      if (state === 'closed') {
        log.warn(
          { reason: error instanceof Error ? error.message : String(error), retryMs },
          'Redis unreachable: rate limits and throttles count in this instance until it answers',
        );
      }
      state = 'open';
      since = now();
    },
  };
}

/** The shared client when `REDIS_URL` is set; closed with the app. */
export function openRedis(app: FastifyInstance, config: Config): SharedRedis | undefined {
  if (!config.redis.url) return undefined;
  const client = new Redis(config.redis.url, {
    enableOfflineQueue: false,
    commandTimeout: config.redis.timeoutMs,
    socketTimeout: SOCKET_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // A command cut off by a lost connection fails; it is never sent twice (a hit counted twice).
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (times) => Math.min(times * 100, 2000),
  });
  const breaker = createBreaker(config.redis.retryMs, app.log);
  // Errors surface on the commands; a completed (re)connection closes the breaker at once.
  client.on('error', () => undefined);
  client.on('ready', () => breaker.succeeded());
  // Start-up waits briefly for the first connection, so the first requests share counts.
  app.addHook('onReady', async () => {
    if (client.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        client.off('ready', done).off('error', done);
        resolve();
      };
      const timer = setTimeout(done, CONNECT_TIMEOUT_MS);
      client.once('ready', done).once('error', done);
    });
  });
  app.addHook('onClose', async () => {
    await client.quit().catch(() => undefined);
    client.disconnect();
  });
  return { client, breaker };
}
