/**
 * buildApp(config, deps): the whole HTTP application, wired by plain factory functions.
 * It never listens; server.ts does, and tests call `app.inject`.
 */
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { openAdminSocket, type AdminSocket } from './admin/admin-socket.js';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { migrateToLatest, pendingMigrations } from './db/migrate.js';
import { authenticationHook, countingFailures } from './http/auth.js';
import { registerBodyParsing } from './http/body-parsing.js';
import { bodyLimitsHook } from './http/body-limits.js';
import {
  clientErrorHandler,
  registerErrorHandling,
  sendProblem,
  toProblem,
} from './http/error-handler.js';
import { checkoutLimitHook } from './http/checkout-limit.js';
import { conditionalGet } from './http/conditional-get.js';
import { expandHook, readExpand, type Expanders } from './http/expand.js';
import { healthRoutes, type Readiness } from './http/health.routes.js';
import { refuseMalformedQuery, refuseUnstorableInput } from './http/input-text.js';
import { loggerOptions } from './http/logging.js';
import type { ResourceModule } from './http/module.js';
import { registerOpenApi } from './http/openapi.js';
import { problemSchemas } from './http/problems.js';
import { createAuthThrottle } from './http/auth-throttle.js';
import { guardConnectionSlots } from './http/connection-slots.js';
import { registerRateLimit } from './http/rate-limit.js';
import { openRedis } from './http/redis.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { checkoutPageRoutes } from './checkout-page/checkout-page.routes.js';
import { echoRequestId, genReqId } from './http/request-id.js';
import { Paging } from './http/schemas.js';
import { buildSerializer } from './http/serialization.js';
import { buildValidator } from './http/validation.js';
import { checkRewriteRoutes, versionHooks } from './http/versioning.js';
import { relaxBodyForOlderVersions } from './http/lenient-bodies.js';
import {
  createDispatcher,
  enqueue,
  enqueueInvitation,
  mailConsumer,
  sentToOthersLastHour,
} from './mail/index.js';
import { delegatesModule } from './modules/delegates/index.js';
import { eventsFacade, eventsModule } from './modules/events/index.js';
import { experiencesModule } from './modules/experiences/index.js';
import { guidesModule } from './modules/guides/index.js';
import { checkoutModule } from './modules/checkout/index.js';
import { createWebhookDispatcher, hooksModule, webhookSender } from './modules/hooks/index.js';
import { idempotencyService } from './modules/idempotency/index.js';
import { createHoldSweeper, ordersModule } from './modules/orders/index.js';
import { Schedule } from './modules/shared/index.js';
import { createCallerCache, usersModule } from './modules/users/index.js';
import { createEventSink } from './outbox/index.js';
import { setPasswordHashConcurrency } from './security/passwords.js';
import { configuredCipher } from './security/secret.js';
import { apiVersions, LATEST_VERSION } from './versions/index.js';
import { createVersionRegistry } from './versions/registry.js';
import type { ApiVersion, VersionChanges } from './versions/types.js';

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
}

/**
 * Opens the configured database and brings its schema up to date (or checks it is). An
 * embedded one is locked for this process as `role` (db/data-dir-lock.ts).
 */
export async function openAppDatabase(config: Config, role = 'server'): Promise<Database> {
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl, poolSize: config.databasePoolSize }
      : { kind: 'pglite', dataDir: config.dataDir, role },
  );
  try {
    if (config.migrateOnStart) {
      await migrateToLatest(database.db);
    } else {
      const pending = await pendingMigrations(database.db);
      if (pending.length > 0) {
        throw new Error(
          `The database schema is out of date (pending: ${pending.join(', ')}); run \`npm run migrate\`.`,
        );
      }
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set `draining` to leave the balancer's rotation before closing (server.ts). */
    readiness: Readiness;
  }
}

export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const database = deps.database ?? (await openAppDatabase(config));
  const { db } = database;

  const app = Fastify({
    logger: loggerOptions(config.logLevel, deps.logStream),
    genReqId,
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    schemaController: {
      compilersFactory: {
        buildValidator: buildValidator as never,
        buildSerializer: buildSerializer as never,
      },
    },
    bodyLimit: config.bodyLimit,
    // Slow and idle clients (docs/configuration.md): a connection must send its headers in
    // time, an idle keep-alive one is closed, and the checks run every second.
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.sockets.keepAliveTimeoutMs,
    connectionTimeout: config.sockets.idleTimeoutMs,
    http: {
      headersTimeout:
        config.requestTimeoutMs > 0
          ? Math.min(config.sockets.headersTimeoutMs, config.requestTimeoutMs)
          : config.sockets.headersTimeoutMs,
      connectionsCheckingInterval: 1000,
    },
    clientErrorHandler,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    frameworkErrors: (error, request, reply) => {
      void reply.header('x-request-id', request.id);
      sendProblem(reply, toProblem(error, request));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // What Node's timeouts leave: clients that do not read, and a cap on connections that
  // sheds idle ones first, so a flood of them cannot lock out health checks or clients.
  guardConnectionSlots(app, config.sockets);

  // Decorations first: plugins registered later (e.g. /docs) see them too.
  app.decorateRequest('caller', null);
  app.decorateRequest('apiVersion', '');
  registerErrorHandling(app);
  registerBodyParsing(app);
  // Before any route: each gets a byte limit and a parse budget from its body schema.
  app.addHook('onRoute', bodyLimitsHook(config.bodyLimit));
  await registerSecurityHeaders(app);
  await registerOpenApi(app);

  // The resource modules, in dependency order; each gets the facades it calls.
  const cipher = configuredCipher(config);
  setPasswordHashConcurrency(config.passwordHashConcurrency);
  const idempotency = idempotencyService({ db });
  // Domain events, written in each change's transaction; email is derived from them there,
  // webhooks by the dispatcher below.
  const domainEvents = createEventSink([mailConsumer], { store: deps.storeDomainEvents });
  // Verified API keys in memory, kept only while every change to them is heard (LISTEN).
  const callers = await createCallerCache(database, {
    ttlMs: config.apiKeyCacheTtlMs,
    staleMs: config.apiKeyCacheStaleMs,
  });
  const users = usersModule({
    domainEvents,
    callers,
    db,
    idempotency,
    cipher,
    latestVersion: LATEST_VERSION,
  });
  const experiences = experiencesModule({ db, users: users.facade, idempotency, domainEvents });
  const guides = guidesModule({
    db,
    domainEvents,
    idempotency,
    users: users.facade,
    leaveFutureEvents: eventsFacade.leaveFutureEvents,
  });
  const events = eventsModule({
    db,
    domainEvents,
    experiences: experiences.facade,
    guides: guides.facade,
    idempotency,
  });
  const orders = ordersModule({
    db,
    users: users.facade,
    experiences: experiences.facade,
    events: events.facade,
    idempotency,
    domainEvents,
    holdMs: config.holds.holdMs,
    pollMarginMs: config.pollHorizonMarginMs,
    relayCap: {
      sentToOthersLastHour,
      toOthersPerHour: config.confirmationsToOthersPerHour,
    },
  });
  const checkout = checkoutModule({
    db,
    users: users.facade,
    experiences: experiences.facade,
    idempotency,
  });
  const modules: ResourceModule[] = [
    users,
    delegatesModule({
      db,
      idempotency,
      users: users.facade,
      // The invitation email, with its token sealed, in the invitation's transaction.
      sendInvitation: (tx, invitation) => enqueueInvitation(tx, cipher, invitation),
      hasBookedWith: orders.facade.hasBookedWith,
      callersChanged: (userId) => callers.invalidate(userId),
    }),
    guides,
    experiences,
    events,
    orders,
    checkout,
  ];

  const versions = createVersionRegistry(deps.versions ?? apiVersions, [
    ...modules.flatMap((m) => (m.versions ? [m.versions] : [])),
    ...(deps.versionChanges ?? []),
  ]);
  modules.push(
    hooksModule({
      db,
      users: users.facade,
      cipher,
      env: config.env,
      resolveVersion: (requested, callerVersion) =>
        requested === undefined ? callerVersion : versions.resolve(requested, undefined),
    }),
  );

  // Named schemas once, at the root, so every route can refer to them (OpenAPI components).
  for (const schema of [
    ...problemSchemas(),
    Paging,
    Schedule,
    ...modules.flatMap((m) => m.schemas),
  ])
    app.addSchema(schema);

  const versioning = versionHooks(versions, db);
  checkRewriteRoutes(app, versions);

  // onRequest order matters: id first, then the rate limit, then version and caller.
  app.addHook('onRequest', echoRequestId);
  app.addHook('onRequest', refuseMalformedQuery);
  const redis = openRedis(app, config);
  await registerRateLimit(app, config, redis);
  app.addHook(
    'onRequest',
    checkoutLimitHook(
      {
        perKey: config.rateLimit.checkoutPerKey,
        perAddress: config.rateLimit.checkoutPerAddress,
        windowMs: config.rateLimit.windowMs,
      },
      redis,
    ),
  );
  app.addHook('onRequest', versioning.fromHeader);
  // One count of failed credentials per address: API keys, passwords, publishable keys.
  const authThrottle = createAuthThrottle(config.authThrottle, redis);
  app.addHook('onRequest', authenticationHook(users.authentication, config.env, authThrottle));
  app.addHook('onRequest', versioning.fromAccount);
  app.addHook('onRequest', countingFailures(checkout.hooks.authenticate, authThrottle));
  app.addHook('preHandler', checkout.hooks.holdToSeller);
  app.addHook('preValidation', refuseUnstorableInput);
  app.addHook('preValidation', async (request) => readExpand(request));
  app.addHook('preValidation', versioning.rewriteRequest);
  app.addHook('preValidation', relaxBodyForOlderVersions);
  // Expanded first, so the objects it brings in get the caller's version shape too.
  app.addHook(
    'preSerialization',
    expandHook(db, Object.assign({}, ...modules.map((m) => m.expanders ?? {})) as Expanders),
  );
  app.addHook('preSerialization', versioning.rewriteResponse);
  app.addHook('onSend', conditionalGet);

  // Draining (server.ts, on SIGTERM): /readyz says so, and every answer closes its
  // connection, so a balancer stops routing here and reconnects elsewhere.
  const readiness: Readiness = { draining: false };
  app.decorate('readiness', readiness);
  app.addHook('onSend', async (_request, reply) => {
    if (readiness.draining) void reply.header('connection', 'close');
  });
  await checkoutPageRoutes(app, { demo: config.demoPage, dataDir: config.dataDir });
  await app.register(healthRoutes, { db, readiness });
  for (const module of modules) await app.register(module.routes, { prefix: '/api' });

  if (!deps.database) app.addHook('onClose', () => database.close());
  // After the database's on purpose: onClose hooks run last-registered first.
  app.addHook('onClose', () => callers.close());

  // The embedded server lets the command line create accounts through it (admin/).
  if (!deps.database && !config.databaseUrl) {
    let socket: AdminSocket | undefined;
    app.addHook('onListen', async () => {
      socket = await openAdminSocket(config.dataDir, users.service);
    });
    app.addHook('onClose', async () => socket?.close());
  }

  // Email goes out only with a relay configured; without one it stays queued (`cli outbox`).
  // Registered after the database's onClose on purpose: onClose hooks run last-registered
  // first, so stop() lets in-flight sends finish while the database is still open.
  if (config.smtpUrl) {
    const dispatcher = createDispatcher({
      db,
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      cipher,
      logger: app.log.child({ component: 'mail' }),
      ...config.outbox,
    });
    app.addHook('onReady', async () => dispatcher.start());
    app.addHook('onClose', () => dispatcher.stop());
  }

  if (config.holds.sweep) {
    const sweeper = createHoldSweeper({
      releaseExpiredHolds: orders.releaseExpiredHolds,
      sweepMs: config.holds.sweepMs,
      logger: app.log.child({ component: 'holds' }),
    });
    app.addHook('onReady', async () => sweeper.start());
    app.addHook('onClose', () => sweeper.stop());
  }

  if (config.webhooks.dispatch) {
    const webhooks = createWebhookDispatcher({
      db,
      cipher,
      versions,
      send: webhookSender(config.env, config.webhooks.timeoutMs),
      logger: app.log.child({ component: 'webhooks' }),
      ...config.webhooks,
      // The owner learns its hook was disabled (email, through the outbox).
      onDisabled: async (tx, hook) => {
        const owner = await users.facade.find(tx, hook.user.id);
        if (owner)
          await enqueue(tx, { kind: 'hook_disabled', hookId: hook.id, recipient: owner.email });
      },
    });
    app.addHook('onReady', async () => webhooks.start());
    app.addHook('onClose', () => webhooks.stop());
  }
  return app;
}
