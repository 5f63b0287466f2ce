/**
 * The resources module assembled (docs/resources.md): CRUD of a seller's shared resources,
 * and the facade the events module's seat interface and availability use.
 */
import type { Db } from '../../db/database.js';
import type { Executor } from '../../db/unit-of-work.js';
import type { ResourceModule } from '../../http/module.js';
import type { IdempotencyService } from '../idempotency/index.js';
import { resourcesFacade, type ResourcesFacade } from './resources.facade.js';
import { resourcesRoutes } from './resources.routes.js';
import { Resource, ResourceList } from './resources.schemas.js';
import { resourcesService } from './resources.service.js';

export function resourcesModule(deps: {
  db: Db;
  idempotency: IdempotencyService;
  /** Whether an experience lists the resource (a callback up to the experiences module). */
  usedByExperiences: (db: Executor, resourceId: string) => Promise<boolean>;
}): ResourceModule<ResourcesFacade> {
  const resources = resourcesService(deps);
  return {
    name: 'resources',
    schemas: [Resource, ResourceList],
    routes: (app) => resourcesRoutes(app, { resources, idempotency: deps.idempotency }),
    facade: resourcesFacade,
  };
}
