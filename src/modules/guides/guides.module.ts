/** The guides module assembled: routes over the service, the facade, what it registers. */
import type { Db } from '../../db/database.js';
import type { ResourceModule } from '../../http/module.js';
import type { IdempotencyService } from '../idempotency/index.js';
import { guidesFacade, type GuidesFacade } from './guides.facade.js';
import { guidesRoutes } from './guides.routes.js';
import { Guide, GuideList, GuideSchedule } from './guides.schemas.js';
import { guidesService, type GuidesServiceDeps } from './guides.service.js';

export function guidesModule(
  deps: GuidesServiceDeps & { db: Db; idempotency: IdempotencyService },
): ResourceModule<GuidesFacade> {
  const guides = guidesService(deps);
  return {
    name: 'guides',
    schemas: [GuideSchedule, Guide, GuideList],
    routes: (app) => guidesRoutes(app, { guides, idempotency: deps.idempotency }),
    facade: guidesFacade,
    expanders: { guides: (_db, caller, ids) => guides.views(caller, ids) },
  };
}
