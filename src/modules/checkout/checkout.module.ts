/**
 * The checkout module assembled: publishable keys (routes over their service) and the
 * hooks that turn a request made with one into a guest checkout held to its seller.
 */
import type { Db } from '../../db/database.js';
import type { ResourceModule } from '../../http/module.js';
import type { ExperiencesFacade } from '../experiences/index.js';
import type { IdempotencyService } from '../idempotency/index.js';
import type { UsersFacade } from '../users/index.js';
import { checkoutHooks } from './checkout.guard.js';
import { publishableKeysRoutes } from './publishable-keys.routes.js';
import { PublishableKey, PublishableKeyList } from './publishable-keys.schemas.js';
import { publishableKeysService } from './publishable-keys.service.js';

export function checkoutModule(deps: {
  db: Db;
  users: UsersFacade;
  experiences: ExperiencesFacade;
  idempotency: IdempotencyService;
}): ResourceModule & { hooks: ReturnType<typeof checkoutHooks> } {
  const keys = publishableKeysService(deps);
  return {
    name: 'checkout',
    schemas: [PublishableKey, PublishableKeyList],
    routes: (app) => publishableKeysRoutes(app, { keys, idempotency: deps.idempotency }),
    facade: {},
    hooks: checkoutHooks(deps),
  };
}
