/** The delegates module assembled: routes over the service, and what it registers. */
import type { Db } from '../../db/database.js';
import type { ResourceModule } from '../../http/module.js';
import type { UsersFacade } from '../users/index.js';
import { delegatesFacade, type DelegatesFacade } from './delegates.facade.js';
import { delegatesRoutes } from './delegates.routes.js';
import { Delegate, DelegateList } from './delegates.schemas.js';
import { delegatesService } from './delegates.service.js';

export function delegatesModule(deps: {
  db: Db;
  users: UsersFacade;
}): ResourceModule<DelegatesFacade> {
  const delegates = delegatesService(deps);
  return {
    name: 'delegates',
    schemas: [Delegate, DelegateList],
    routes: (app) => delegatesRoutes(app, { delegates }),
    facade: delegatesFacade,
  };
}
