/** The experiences module assembled: routes over the service, the facade, what it registers. */
import type { ResourceModule } from '../../http/module.js';
import type { IdempotencyService } from '../idempotency/index.js';
import { Demographic, DemographicList } from './demographics.schemas.js';
import { experiencesFacade, type ExperiencesFacade } from './experiences.facade.js';
import { experiencePartsRoutes } from './experience-parts.routes.js';
import { experiencesRoutes } from './experiences.routes.js';
import { Experience, ExperienceList } from './experiences.schemas.js';
import type { ExperiencesServiceDeps } from './experiences.context.js';
import { experiencesService } from './experiences.service.js';

export function experiencesModule(
  deps: ExperiencesServiceDeps & { idempotency: IdempotencyService },
): ResourceModule<ExperiencesFacade> {
  const experiences = experiencesService(deps);
  return {
    name: 'experiences',
    schemas: [Experience, ExperienceList, Demographic, DemographicList],
    routes: async (app) => {
      await experiencesRoutes(app, { experiences, idempotency: deps.idempotency });
      await experiencePartsRoutes(app, { experiences, idempotency: deps.idempotency });
    },
    facade: experiencesFacade,
    expanders: { experience: (_db, caller, ids) => experiences.views(caller, ids) },
  };
}
