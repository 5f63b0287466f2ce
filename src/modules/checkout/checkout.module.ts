/**
 * The checkout module assembled: publishable keys (routes over their service) and the
 * request hooks that turn a request made with one into a guest checkout held to its seller.
 */
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.js';
import type { ResourceModule } from '../../http/module.js';
import type { IdempotencyService } from '../idempotency/index.js';
import { checkoutFacade, type CheckoutFacade } from './checkout.facade.js';
import { checkoutHooks } from './checkout.guard.js';
import { publishableKeysRoutes } from './publishable-keys.routes.js';
import { PublishableKey, PublishableKeyList } from './publishable-keys.schemas.js';
import { publishableKeysService } from './publishable-keys.service.js';

type Authenticate = (request: FastifyRequest) => Promise<void>;

export function checkoutModule(deps: {
  db: Db;
  idempotency: IdempotencyService;
  /** Wraps the key's authentication (app-modules.ts counts its failures with the others). */
  guard?: (authenticate: Authenticate) => Authenticate;
}): ResourceModule<CheckoutFacade> {
  const keys = publishableKeysService(deps);
  const hooks = checkoutHooks(deps);
  const authenticate = deps.guard ? deps.guard(hooks.authenticate) : hooks.authenticate;
  return {
    name: 'checkout',
    schemas: [PublishableKey, PublishableKeyList],
    routes: (app) => publishableKeysRoutes(app, { keys, idempotency: deps.idempotency }),
    facade: checkoutFacade,
    hooks: { onRequest: [authenticate], preHandler: [hooks.holdToSeller] },
  };
}
