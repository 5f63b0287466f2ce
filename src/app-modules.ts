/**
 * The application's modules, in dependency order, each given what it needs from the
 * configuration and the platform (database, event sink, idempotency, cipher, logs). A module
 * reaches its neighbours by importing their facades; what is passed here is configuration,
 * shared infrastructure, and callbacks upward (a lower module asking a higher one, e.g.
 * guides telling events a guide left). app.ts registers every module of the list the same
 * way (http/module.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { countingFailures } from './http/auth.js';
import type { AuthThrottle } from './http/auth-throttle.js';
import type { ResourceModule } from './http/module.js';
import {
  enqueue,
  enqueueInvitation,
  mailConsumer,
  mailModule,
  sentToOthersLastHour,
  sentToRecipientLastDay,
  invitationsLastHour,
  sellerConfirmationsLastDay,
  withheldLog,
} from './mail/index.js';
import { checkinsModule, manifestCursorKeys } from './modules/checkins/index.js';
import { checkoutFacade, checkoutModule } from './modules/checkout/index.js';
import { delegatesModule } from './modules/delegates/index.js';
import { eventsFacade, eventsModule } from './modules/events/index.js';
import { experiencesFacade, experiencesModule } from './modules/experiences/index.js';
import { guidesModule } from './modules/guides/index.js';
import { hooksFacade, hooksModule, webhookSender } from './modules/hooks/index.js';
import { idempotencyService } from './modules/idempotency/index.js';
import { resourcesModule } from './modules/resources/index.js';
import { octoModule, ownKeyReseller } from './modules/octo/index.js';
import { ordersFacade, ordersModule, type RelayCap } from './modules/orders/index.js';
import { resellerOwners, resellersFacade, resellersModule } from './modules/resellers/index.js';
import {
  createCallerCache,
  usersFacade,
  usersModule,
  type UsersModule,
} from './modules/users/index.js';
import { createEventSink } from './outbox/index.js';
import { retentionModule, retentionPruners } from './retention.js';
import { setPasswordHashConcurrency } from './security/passwords.js';
import { configuredCipher, configuredFingerprintKey, loadSecret } from './security/secret.js';
import { apiVersions, LATEST_VERSION } from './versions/index.js';
import { createVersionRegistry, type VersionRegistry } from './versions/registry.js';
import type { ApiVersion, VersionChanges } from './versions/types.js';
import { DomainError } from './domain/errors.js';
import type { Reseller } from './domain/caller.js';

export interface ModuleContext {
  config: Config;
  database: Database;
  log: FastifyBaseLogger;
  /** Failed credentials counted per address (auth-throttle.ts), publishable keys' too. */
  authThrottle: AuthThrottle;
  /** false: domain events are not stored (the benchmark's baseline). */
  storeDomainEvents?: boolean;
  /** The dated API versions (default src/versions/) and extra changes (tests). */
  versions?: readonly ApiVersion[];
  versionChanges?: readonly VersionChanges[];
}

export interface Modules {
  list: ResourceModule[];
  /** Authentication and the trusted path (the admin socket) need the users module itself. */
  users: UsersModule;
  versions: VersionRegistry;
}

/** The caps on confirmations bookings send to others (docs/booking.md, "Not a relay"). */
function relayCapOf(config: ModuleContext['config'], log: FastifyBaseLogger): RelayCap {
  return {
    sentToOthersLastHour,
    toOthersPerHour: config.confirmationsToOthersPerHour,
    sentToRecipientLastDay,
    perSeller: {
      perDay: config.sellerConfirmationsToOthersPerDay,
      sentToOthersLastDay: sellerConfirmationsLastDay,
      // The seller's id, for the operator to look at, never an address; at most a line per
      // seller every 10 minutes, however fast a spam run is withheld (mail/withheld-log.ts).
      withheld: withheldLog(log.child({ component: 'mail' })),
    },
  };
}

export async function createModules(ctx: ModuleContext): Promise<Modules> {
  const { config, database, log } = ctx;
  const { db } = database;
  const cipher = configuredCipher(config);
  setPasswordHashConcurrency(config.passwordHashConcurrency);
  const idempotency = idempotencyService({ db, fingerprintKey: configuredFingerprintKey(config) });
  // Domain events, written in each change's transaction; email is derived from them there,
  // webhooks by the hooks module's dispatcher.
  const domainEvents = createEventSink([mailConsumer], { store: ctx.storeDomainEvents });
  // Verified API keys in memory, kept only while every change to them is heard (LISTEN).
  const callers = await createCallerCache(database, {
    ttlMs: config.apiKeyCacheTtlMs,
    staleMs: config.apiKeyCacheStaleMs,
  });
  const users = usersModule({
    db,
    domainEvents,
    callers,
    idempotency,
    cipher,
    latestVersion: LATEST_VERSION,
    passwordAttempts: ctx.authThrottle,
  });
  // Resellers' Bearer credentials: cached with API keys, revoked everywhere at once.
  const resellers = resellersModule({
    db,
    cipher,
    idempotency,
    // A revocation releases the credential's holds: their cancellations are announced.
    domainEvents,
    cache: callers.section<Reseller>('reseller', resellerOwners),
    propagated: () => callers.propagated(),
  });
  // OCTo at /octo; its webhook bodies are rendered for the hooks module's dispatcher.
  const octo = octoModule({
    db,
    env: config.env,
    domainEvents,
    cipher,
    // A reseller credential, else the seller's own API key: both caches are asked before
    // either table, so a verified credential of either kind costs no query.
    bearer: async (secret) =>
      (await resellers.authentication.cached(secret)) ??
      (await users.authentication.byApiKey(secret).then(ownKeyReseller, (error: unknown) => {
        if (error instanceof DomainError && error.code === 'invalid_credentials') return undefined;
        throw error;
      })) ??
      resellers.authentication.bySecret(secret),
    // A wrong Bearer credential counts with the address's other failed credentials.
    guard: (authenticate) => countingFailures(authenticate, ctx.authThrottle),
  });
  const list: ResourceModule[] = [
    users,
    resellers,
    delegatesModule({
      db,
      idempotency,
      // The invitation email, with its token sealed, in the invitation's transaction.
      sendInvitation: (tx, invitation) => enqueueInvitation(tx, cipher, invitation),
      recentInvitations: invitationsLastHour,
      hasBookedWith: ordersFacade.hasBookedWith,
      callersChanged: (userId) => callers.invalidate(userId),
      // What a delegate made ends with the capability it made it with (docs/security.md).
      madeWith: {
        hooks: [hooksFacade.disableMadeBy],
        keys: [
          (tx, sellerId, userId) =>
            resellersFacade.revokeMadeBy(tx, sellerId, userId, { domainEvents }),
          checkoutFacade.revokeMadeBy,
        ],
      },
      propagated: () => callers.propagated(),
    }),
    guidesModule({
      db,
      domainEvents,
      idempotency,
      leaveFutureEvents: eventsFacade.leaveFutureEvents,
    }),
    // Boats and vans whose seats experiences share (docs/resources.md).
    resourcesModule({ db, idempotency, usedByExperiences: experiencesFacade.usesResource }),
    experiencesModule({ db, idempotency, domainEvents, seatsAhead: eventsFacade.seatsAhead }),
    eventsModule({ db, domainEvents, idempotency }),
    ordersModule({
      db,
      idempotency,
      domainEvents,
      holdMs: config.holds.holdMs,
      pollMarginMs: config.pollHorizonMarginMs,
      relayCap: relayCapOf(config, log),
      ...(config.holds.sweep
        ? { sweeper: { sweepMs: config.holds.sweepMs, logger: log.child({ component: 'holds' }) } }
        : {}),
    }),
    octo,
    // The dock: check-ins and manifests, over orders' guests and events' guides.
    checkinsModule({
      db,
      domainEvents,
      cursorKeys: manifestCursorKeys(loadSecret(config), config.previousSecret),
    }),
    checkoutModule({
      db,
      idempotency,
      // A wrong publishable key counts with the address's other failed credentials.
      guard: (authenticate) => countingFailures(authenticate, ctx.authThrottle),
    }),
  ];
  const versions = createVersionRegistry(ctx.versions ?? apiVersions, [
    ...list.flatMap((m) => (m.versions ? [m.versions] : [])),
    ...(ctx.versionChanges ?? []),
  ]);
  list.push(
    hooksModule({
      db,
      cipher,
      env: config.env,
      resolveVersion: (requested, callerVersion) =>
        requested === undefined ? callerVersion : versions.resolve(requested, undefined),
      ...(config.webhooks.dispatch
        ? {
            dispatch: {
              versions,
              send: webhookSender(config.env, config.webhooks.timeoutMs),
              logger: log.child({ component: 'webhooks' }),
              renderForReseller: octo.renderWebhook,
              ...config.webhooks,
              // The owner learns its hook was disabled (email, through the outbox).
              onDisabled: async (tx, hook) => {
                const owner = await usersFacade.find(tx, hook.user.id);
                if (owner)
                  await enqueue(tx, {
                    kind: 'hook_disabled',
                    hookId: hook.id,
                    recipient: owner.email,
                  });
              },
            },
          }
        : {}),
    }),
    // Email goes out only with a relay configured; without one it stays queued.
    mailModule(
      config.smtpUrl
        ? {
            db,
            smtpUrl: config.smtpUrl,
            from: config.mailFrom,
            cipher,
            logger: log.child({ component: 'mail' }),
            ...config.outbox,
          }
        : undefined,
    ),
    // Settled work past RETENTION_DAYS deleted (src/retention.ts).
    retentionModule(
      retentionPruners(db, idempotency, config.retention.ms),
      config.retention.sweep
        ? { everyMs: config.retention.sweepMs, logger: log.child({ component: 'retention' }) }
        : undefined,
    ),
  );
  return { list, users, versions };
}
