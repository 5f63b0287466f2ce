/**
 * Every request's way through the application, in order: the request id; a provisional
 * version (so every answer names one, a 429 too); the credential's rate limit; a malformed
 * query refused (counted by that limit); the checkout and sign-up limits; the version asked
 * for; the caller from its credentials (failures throttled); the account's pinned version;
 * the modules' own `onRequest` hooks (a publishable key's guest checkout); then, before
 * validation, input no handler may see, `expand=`, the older versions' request rewrites and
 * lenient bodies; the modules' `preHandler` hooks; and on the way out `expand=`, the older
 * versions' shapes, and conditional GETs. The order is the rule: it lives here once.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { authenticationHook, type Authenticator } from './auth.js';
import { isUnder } from './error-handler.js';
import type { AuthThrottle } from './auth-throttle.js';
import { checkoutLimitHooks } from './checkout-limit.js';
import { signupLimitHook } from './signup-limit.js';
import { conditionalGet } from './conditional-get.js';
import { expandHook, readExpand, type Expanders } from './expand.js';
import { refuseMalformedQuery, refuseUnstorableInput } from './input-text.js';
import { relaxBodyForOlderVersions } from './lenient-bodies.js';
import type { ResourceModule } from './module.js';
import { registerRateLimit } from './rate-limit.js';
import type { SharedRedis } from './redis.js';
import { echoRequestId } from './request-id.js';
import { atOnce, atOnceOnSend, atOnceOrAfter } from './sync-hooks.js';
import type { versionHooks } from './versioning.js';

export interface Pipeline {
  config: Config;
  db: Db;
  redis: SharedRedis | undefined;
  versioning: ReturnType<typeof versionHooks>;
  authenticate: Authenticator;
  authThrottle: AuthThrottle;
  modules: readonly ResourceModule[];
}

export async function registerRequestPipeline(app: FastifyInstance, p: Pipeline): Promise<void> {
  const { config, versioning, modules } = p;
  app.addHook('onRequest', atOnce(echoRequestId));
  // Every answer names its version, one refused before the version hooks (a 429) too.
  app.addHook('onRequest', atOnce(versioning.provisional));
  // Modules that authenticate their own routes (OCTo's Bearer credentials): the global
  // authentication leaves them alone, and the rate limit keys them on what they read.
  const ownScopes = modules.flatMap((m) => (m.ownAuthentication && m.prefix ? [m.prefix] : []));
  await registerRateLimit(app, config, p.redis, ownScopes);
  // After the rate limit, so that a refused query spends the caller's budget as any other
  // request does: refused before it, a flood of them was never counted.
  app.addHook('onRequest', atOnce(refuseMalformedQuery));
  const checkoutLimit = checkoutLimitHooks(
    {
      perKey: config.rateLimit.checkoutPerKey,
      perAddress: config.rateLimit.checkoutPerAddress,
      windowMs: config.rateLimit.windowMs,
    },
    p.redis,
  );
  app.addHook('onRequest', atOnceOrAfter(checkoutLimit.onRequest));
  app.addHook('onRequest', atOnceOrAfter(signupLimitHook(config.signupsPerAddress, p.redis)));
  app.addHook('onRequest', atOnce(versioning.fromHeader));
  app.addHook(
    'onRequest',
    atOnceOrAfter(
      authenticationHook(p.authenticate, config.env, p.authThrottle, (request) =>
        ownScopes.some((prefix) => isUnder(request.url, prefix)),
      ),
    ),
  );
  app.addHook('onRequest', atOnce(versioning.fromAccount));
  for (const hook of modules.flatMap((m) => m.hooks?.onRequest ?? []))
    app.addHook('onRequest', hook);
  for (const hook of modules.flatMap((m) => m.hooks?.preHandler ?? []))
    app.addHook('preHandler', hook);
  app.addHook('preValidation', atOnce(refuseUnstorableInput));
  app.addHook('preValidation', atOnce(readExpand));
  app.addHook('preValidation', atOnceOrAfter(versioning.rewriteRequest));
  app.addHook('preValidation', atOnce(relaxBodyForOlderVersions));
  // Expanded first, so the objects it brings in get the caller's version shape too.
  const expanders = Object.assign({}, ...modules.map((m) => m.expanders ?? {})) as Expanders;
  app.addHook('preSerialization', expandHook(p.db, expanders));
  app.addHook('preSerialization', versioning.rewriteResponse);
  app.addHook('onSend', atOnceOnSend(conditionalGet));
}
