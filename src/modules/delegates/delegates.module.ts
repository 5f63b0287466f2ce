/** The delegates module assembled: routes over the service, and what it registers. */
import type { ResourceModule } from '../../http/module.js';
import type { IdempotencyService } from '../idempotency/index.js';
import { delegatesFacade, type DelegatesFacade } from './delegates.facade.js';
import { delegatesRoutes } from './delegates.routes.js';
import { Delegate, DelegateList } from './delegates.schemas.js';
import { delegatesService, type DelegatesServiceDeps } from './delegates.service.js';

export function delegatesModule(
  deps: DelegatesServiceDeps & { idempotency: IdempotencyService },
): ResourceModule<DelegatesFacade> {
  const delegates = delegatesService(deps);
  return {
    name: 'delegates',
    schemas: [Delegate, DelegateList],
    routes: (app) => delegatesRoutes(app, { delegates, idempotency: deps.idempotency }),
    facade: delegatesFacade,
  };
}
