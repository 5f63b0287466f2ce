/**
 * buildApp(config, deps): the whole HTTP application, wired by plain factory functions.
 * It never listens; server.ts does, and tests call `app.inject`.
 */
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { migrateToLatest, pendingMigrations } from './db/migrate.js';
import { authenticationHook } from './http/auth.js';
import { registerBodyParsing } from './http/body-parsing.js';
import { registerErrorHandling, sendProblem, toProblem } from './http/error-handler.js';
import { healthRoutes } from './http/health.routes.js';
import { loggerOptions } from './http/logging.js';
import { registerOpenApi } from './http/openapi.js';
import { createDispatcher } from './mail/dispatcher.js';
import { enqueue } from './mail/outbox.repository.js';
import { registerRateLimit } from './http/rate-limit.js';
import { echoRequestId, genReqId } from './http/request-id.js';
import { buildSerializer } from './http/serialization.js';
import { buildValidator } from './http/validation.js';
import { versionHooks } from './http/versioning.js';
import { authenticationService } from './modules/users/authentication.service.js';
import { createBasicAuthCache } from './modules/users/basic-auth-cache.js';
import { delegatesRoutes } from './modules/delegates/delegates.routes.js';
import { delegatesService } from './modules/delegates/delegates.service.js';
import { eventsRoutes } from './modules/events/events.routes.js';
import { eventsService } from './modules/events/events.service.js';
import { experiencesRoutes } from './modules/experiences/experiences.routes.js';
import { assignmentRoutes } from './modules/guides/assignment.routes.js';
import { assignmentService } from './modules/guides/assignment.service.js';
import { guidesRoutes } from './modules/guides/guides.routes.js';
import { guidesService } from './modules/guides/guides.service.js';
import { idempotencyService } from './modules/idempotency/idempotency.service.js';
import { experiencesService } from './modules/experiences/experiences.service.js';
import { ordersRoutes } from './modules/orders/orders.routes.js';
import { ordersService } from './modules/orders/orders.service.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { usersService } from './modules/users/users.service.js';
import { registerSchemas } from './schemas.js';
import { createApiKeyCipher } from './security/api-keys.js';
import { loadSecret } from './security/secret.js';
import { versionRegistry } from './versions/index.js';
import type { VersionRegistry } from './versions/registry.js';

export interface AppDeps {
  /** An open, migrated database; when absent one is opened from config (and closed with the app). */
  database?: Database;
  /** Where logs go (tests capture them); default stdout. */
  logStream?: NodeJS.WritableStream;
  /** The API versions; default the registered ones of src/versions/. */
  versions?: VersionRegistry;
}

/** Opens the configured database and brings its schema up to date (or checks it is). */
export async function openAppDatabase(config: Config): Promise<Database> {
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl, poolSize: config.databasePoolSize }
      : { kind: 'pglite', dataDir: config.dataDir },
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

export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const database = deps.database ?? (await openAppDatabase(config));
  const { db } = database;
  const versions = deps.versions ?? versionRegistry;

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
    requestTimeout: config.requestTimeoutMs,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    frameworkErrors: (error, request, reply) => {
      void reply.header('x-request-id', request.id);
      sendProblem(reply, toProblem(error, request));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Decorations first: plugins registered later (e.g. /docs) see them too.
  app.decorateRequest('caller', null);
  app.decorateRequest('apiVersion', '');
  registerErrorHandling(app);
  registerBodyParsing(app);
  registerSchemas(app);
  await registerOpenApi(app);

  const cipher = createApiKeyCipher(loadSecret(config));
  const auth = authenticationService({ db, cache: createBasicAuthCache() });
  const users = usersService({ db, cipher, latestVersion: versions.latest });
  const versioning = versionHooks(versions, db);

  // onRequest order matters: id first, then the rate limit, then version and caller.
  app.addHook('onRequest', echoRequestId);
  await registerRateLimit(app, config);
  app.addHook('onRequest', versioning.fromHeader);
  app.addHook('onRequest', authenticationHook(auth, config.env));
  app.addHook('onRequest', versioning.fromAccount);
  app.addHook('preValidation', versioning.rewriteRequest);
  app.addHook('preSerialization', versioning.rewriteResponse);

  await app.register(healthRoutes, { db });
  await app.register(usersRoutes, { prefix: '/api', users });
  await app.register(delegatesRoutes, { prefix: '/api', delegates: delegatesService({ db }) });
  await app.register(guidesRoutes, { prefix: '/api', guides: guidesService({ db }) });
  await app.register(experiencesRoutes, {
    prefix: '/api',
    experiences: experiencesService({ db }),
  });
  const idempotency = idempotencyService({ db });
  await app.register(eventsRoutes, { prefix: '/api', events: eventsService({ db }), idempotency });
  await app.register(assignmentRoutes, { prefix: '/api', assignments: assignmentService({ db }) });
  const confirmations = {
    enqueue: async (trx: typeof db, message: { orderId: string; recipient: string }) =>
      void (await enqueue(trx, message)),
  };
  await app.register(ordersRoutes, {
    prefix: '/api',
    orders: ordersService({ db, confirmations }),
    idempotency,
  });

  if (!deps.database) app.addHook('onClose', () => database.close());

  // Email goes out only with a relay configured; without one it stays queued (`cli outbox`).
  // Registered after the database's onClose on purpose: onClose hooks run last-registered
  // first, so stop() lets in-flight sends finish while the database is still open.
  if (config.smtpUrl) {
    const dispatcher = createDispatcher({
      db,
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      logger: app.log.child({ component: 'mail' }),
      ...config.outbox,
    });
    app.addHook('onReady', async () => dispatcher.start());
    app.addHook('onClose', () => dispatcher.stop());
  }
  return app;
}
