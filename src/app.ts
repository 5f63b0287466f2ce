/**
 * buildApp(config, deps): the whole HTTP application. It never listens; server.ts does, and
 * tests call `app.inject`. The platform first (errors, bodies, security headers, OpenAPI,
 * connection slots), then the modules of app-modules.ts, each registered the same way
 * (http/module.ts): schemas, routes, request hooks, workers and what they hold open; the
 * request pipeline's order is http/request-pipeline.ts's; the workers' start and stop,
 * http/worker-lifecycle.ts's.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { openAdminSocket, type AdminCommands, type AdminSocket } from './admin/admin-socket.js';
import { createModules } from './app-modules.js';
import type { Config } from './config.js';
import { openAppDatabase } from './app-database.js';
import type { Database } from './db/database.js';
import { createAuthThrottle } from './http/auth-throttle.js';
import { bodyLimitsHook } from './http/body-limits.js';
import { registerBodyParsing } from './http/body-parsing.js';
import { guardConnectionSlots } from './http/connection-slots.js';
import { registerErrorHandling, scopeProblems } from './http/error-handler.js';
import { fastifyOptions } from './http/fastify-options.js';
import { healthRoutes, type Readiness } from './http/health.routes.js';
import { registerMetrics } from './http/metrics.routes.js';
import { outboxRepository } from './mail/index.js';
import { registerOpenApi } from './http/openapi.js';
import { problemSchemas } from './http/problems.js';
import { openRedis } from './http/redis.js';
import { registerRequestPipeline } from './http/request-pipeline.js';
import { Paging } from './http/schemas.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { atOnceOnSend } from './http/sync-hooks.js';
import { checkRewriteRoutes, versionHooks } from './http/versioning.js';
import { decorateRouteOf } from './http/route-of.js';
import { Schedule } from './modules/shared/index.js';
import type { ApiVersion, VersionChanges } from './versions/types.js';
import { checkoutPageRoutes } from './checkout-page/checkout-page.routes.js';
import { registerWorkers } from './http/worker-lifecycle.js';
import { REQUESTS_GRACE_MS } from './shutdown-budget.js';

export { openAppDatabase } from './app-database.js';

export interface AppDeps {
  /** An open, migrated database; when absent one is opened from config (and closed with the app). */
  database?: Database;
  /** Where logs go (tests capture them); default stdout. */
  logStream?: NodeJS.WritableStream;
  /** The dated API versions; default the registered ones of src/versions/. */
  versions?: readonly ApiVersion[];
  /** Version changes beyond the modules' own (tests of the versioning machinery). */
  versionChanges?: readonly VersionChanges[];
  /** false: domain events are not stored (no webhooks); the benchmark's baseline. */
  storeDomainEvents?: boolean;
  /** The command line's commands, run on the admin socket of an embedded server (server.ts). */
  adminCommands?: AdminCommands;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set `draining` to leave the balancer's rotation before closing (server.ts). */
    readiness: Readiness;
    /** Tells every worker to take no more work (http/worker-lifecycle.ts). */
    stopClaiming(): void;
  }
}

export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const app = Fastify(
    fastifyOptions(config, deps.logStream),
  ).withTypeProvider<TypeBoxTypeProvider>();
  // After the logger, which tells each stage of a first start (a new embedded database).
  const database =
    deps.database ?? (await openAppDatabase(config, 'server', (stage) => app.log.info(stage)));
  const { db } = database;

  // What Node's timeouts leave: clients that do not read, and a cap on connections that
  // sheds idle ones first, so a flood of them cannot lock out health checks or clients.
  guardConnectionSlots(app, config.sockets);
  // Decorations first: plugins registered later (e.g. /docs) see them too.
  app.decorateRequest('caller', null);
  app.decorateRequest('apiVersion', '');
  app.decorateRequest('latestShape', true);
  decorateRouteOf(app);
  registerErrorHandling(app);
  registerBodyParsing(app);
  // Before any route: each gets a byte limit and a parse budget from its body schema.
  app.addHook('onRoute', bodyLimitsHook(config.bodyLimit));
  await registerSecurityHeaders(app);
  await registerOpenApi(app);

  const redis = openRedis(app, config);
  // One count of failed credentials per address: API keys, passwords, publishable keys.
  const authThrottle = createAuthThrottle(config.authThrottle, redis);
  const modules = await createModules({
    config,
    database,
    log: app.log,
    authThrottle,
    ...(deps.storeDomainEvents === undefined ? {} : { storeDomainEvents: deps.storeDomainEvents }),
    ...(deps.versions ? { versions: deps.versions } : {}),
    ...(deps.versionChanges ? { versionChanges: deps.versionChanges } : {}),
  });

  // Named schemas once, at the root, so every route can refer to them (OpenAPI components).
  for (const schema of [
    ...problemSchemas(),
    Paging,
    Schedule,
    ...modules.list.flatMap((m) => m.schemas),
  ])
    app.addSchema(schema);
  checkRewriteRoutes(app, modules.versions);
  await registerRequestPipeline(app, {
    config,
    db,
    redis,
    versioning: versionHooks(modules.versions, db),
    authenticate: modules.users.authentication,
    authThrottle,
    modules: modules.list,
  });

  // Draining (server.ts, on SIGTERM): /readyz says so, and every answer closes its
  // connection, so a balancer stops routing here and reconnects elsewhere.
  const readiness: Readiness = { draining: false };
  app.decorate('readiness', readiness);
  app.addHook(
    'onSend',
    atOnceOnSend((_request, reply, payload) => {
      if (readiness.draining) void reply.header('connection', 'close');
      return payload;
    }),
  );
  await checkoutPageRoutes(app, {
    demo: config.demoPage,
    dataDir: config.dataDir,
    // The widget tells a guest an email is on its way only when one is (mail/).
    widget: { mail: config.smtpUrl ? 'sent' : 'queued' },
  });
  await app.register(healthRoutes, { db, readiness });
  registerMetrics(app, {
    token: config.metricsToken,
    behindProxy: config.trustProxy.length > 0,
    sources: {
      outbox: () => outboxRepository(db).pendingStats(),
      pool: () => database.poolStats(),
    },
  });
  for (const module of modules.list) {
    if (module.routes) await app.register(module.routes, { prefix: module.prefix ?? '/api' });
    if (module.prefix && module.sendProblem)
      scopeProblems(app, { prefix: module.prefix, send: module.sendProblem });
  }

  if (!deps.database) app.addHook('onClose', () => database.close());
  // After the database's on purpose: onClose hooks run last-registered first (the HTTP
  // server's close before them all), so workers finish what they hold, then modules close,
  // while the database is still open.
  for (const module of modules.list) {
    if (module.close) app.addHook('onClose', () => module.close!());
  }
  registerWorkers(
    app,
    modules.list.flatMap((module) => module.workers ?? []),
    REQUESTS_GRACE_MS,
  );

  // The embedded server runs the command line's commands on its database (admin/).
  const commands = deps.adminCommands;
  if (!deps.database && !config.databaseUrl && commands) {
    let socket: AdminSocket | undefined;
    app.addHook('onListen', async () => {
      socket = await openAdminSocket(config.dataDir, (request, io) =>
        commands(request, { ...io, database, config }),
      );
    });
    app.addHook('onClose', async () => socket?.close());
  }
  return app;
}
