/**
 * `GET /metrics` in Prometheus' text format (prom-client): the process's instruments
 * (metrics/), this app's gauges read at scrape time (emails waiting and the oldest one's
 * age, database connections in use and requests waiting for one), and the duration of every
 * request by method, route pattern and status. A scrape answers even while the database
 * does not: the outbox's numbers are then the last ones read (outboxReader). Who may scrape: anyone with `METRICS_TOKEN`
 * as a Bearer token; without a token configured, only a client on this host talking to it
 * directly (loopback, and not forwarded by a proxy: a balancer in front adds
 * X-Forwarded-For, and its clients are not local), and none at all when TRUST_PROXY says a
 * proxy fronts the service. Everyone else gets 403.
 */
import { timingSafeEqual } from 'node:crypto';
import { atOnce } from './sync-hooks.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Gauge, Registry } from 'prom-client';
import { Type } from 'typebox';
import { DomainError } from '../domain/errors.js';
import { httpRequestDuration, processRegistry } from '../metrics/index.js';
import { errorResponses, refTo } from './schemas.js';
import { routeOf } from './route-of.js';

/** The scrape's body, named for the OpenAPI document. */
const Metrics = Type.String({
  $id: 'Metrics',
  description: 'Prometheus text exposition format 0.0.4',
});

export interface MetricsSources {
  outbox(): Promise<{ pending: number; oldestSeconds: number }>;
  pool(): { inUse: number; idle: number; waiting: number };
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const FORWARDED = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

function mayScrape(request: FastifyRequest, options: ScrapeRule): boolean {
  if (options.token) {
    const sent = Buffer.from(request.headers.authorization ?? '');
    const wanted = Buffer.from(`Bearer ${options.token}`);
    return sent.length === wanted.length && timingSafeEqual(sent, wanted);
  }
  // Behind a proxy (TRUST_PROXY set), a loopback peer may be the proxy on this host passing
  // anyone's request on without X-Forwarded-For (nginx's plain proxy_pass, a tunnel): no
  // peer is taken for a local client then, and scraping needs the token.
  if (options.behindProxy) return false;
  const peer = request.raw.socket.remoteAddress ?? '';
  return LOOPBACK.has(peer) && FORWARDED.every((name) => request.headers[name] === undefined);
}

/** How long a scrape waits for the outbox's numbers before it shows the last ones read. */
export const OUTBOX_READ_MS = 500;

/**
 * The outbox's numbers for a scrape, never failing it and never holding it longer than
 * OUTBOX_READ_MS: prom-client collects every gauge at once and fails the whole scrape when
 * one collect rejects, so a database that is down or slow would take the process and pool
 * metrics with it, during the very outage they should show. Then the numbers are the last
 * ones read and `fresh` is false. One read at a time: the gauges of one scrape, and a
 * scrape while a read is still waiting, share it instead of each taking a connection.
 */
function outboxReader(read: MetricsSources['outbox']) {
  const latest = { pending: 0, oldestSeconds: 0, fresh: false };
  let reading: Promise<void> | undefined;
  return async (): Promise<typeof latest> => {
    reading ??= read()
      .then(
        (stats) => void Object.assign(latest, stats, { fresh: true }),
        () => void (latest.fresh = false),
      )
      .finally(() => (reading = undefined));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        latest.fresh = false;
        resolve();
      }, OUTBOX_READ_MS);
    });
    await Promise.race([reading, late]);
    clearTimeout(timer);
    return latest;
  };
}

/** This app's gauges, read when scraped. */
function appRegistry(sources: MetricsSources): Registry {
  const registry = new Registry();
  const outbox = outboxReader(() => sources.outbox());
  new Gauge({
    name: 'outbox_pending',
    help: 'Emails waiting in the outbox',
    registers: [registry],
    async collect() {
      this.set((await outbox()).pending);
    },
  });
  new Gauge({
    name: 'outbox_oldest_seconds',
    help: 'How long the oldest waiting email has waited',
    registers: [registry],
    async collect() {
      this.set((await outbox()).oldestSeconds);
    },
  });
  new Gauge({
    name: 'outbox_stats_fresh',
    help: 'Whether this scrape read the outbox gauges (1), or they are the last ones read because the database failed or was slow (0)',
    registers: [registry],
    async collect() {
      this.set((await outbox()).fresh ? 1 : 0);
    },
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database connections of this instance by state',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = sources.pool();
      this.set({ state: 'in_use' }, stats.inUse);
      this.set({ state: 'idle' }, stats.idle);
    },
  });
  new Gauge({
    name: 'db_pool_waiting',
    help: 'Queries waiting for a database connection',
    registers: [registry],
    collect() {
      this.set(sources.pool().waiting);
    },
  });
  return registry;
}

/** Who may scrape: the token's holders, else clients on this host when no proxy fronts it. */
interface ScrapeRule {
  token: string | undefined;
  behindProxy: boolean;
}

export function registerMetrics(
  app: FastifyInstance,
  options: ScrapeRule & { sources: MetricsSources },
): void {
  const registries = [processRegistry, appRegistry(options.sources)];
  app.addSchema(Metrics);
  app.addHook(
    'onResponse',
    atOnce((request, reply) => {
      httpRequestDuration.observe(
        request.method,
        routeOf(request).url ?? 'unmatched',
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
    }),
  );
  app.get(
    '/metrics',
    {
      config: { ownCredentials: true },
      schema: {
        tags: ['health'],
        operationId: 'getMetrics',
        summary: 'Prometheus metrics (loopback, or Bearer METRICS_TOKEN)',
        response: {
          200: {
            description: 'The metrics',
            content: { 'text/plain; version=0.0.4': { schema: refTo(Metrics) } },
          },
          ...errorResponses('forbidden'),
        },
      },
    },
    async (request, reply) => {
      if (!mayScrape(request, options))
        throw new DomainError(
          'forbidden',
          options.behindProxy
            ? 'Behind a proxy (TRUST_PROXY), metrics are served only with the METRICS_TOKEN as a Bearer token.'
            : 'Metrics are served to clients on this host, or with the METRICS_TOKEN as a Bearer token.',
        );
      const merged = Registry.merge(registries);
      void reply.type(merged.contentType);
      return merged.metrics();
    },
  );
}
