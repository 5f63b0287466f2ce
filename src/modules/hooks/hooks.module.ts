/** The hooks module assembled: routes over the service, and what it registers. */
import type { ResourceModule } from '../../http/module.js';
import { hooksFacade, type HooksFacade } from './hooks.facade.js';
import { hooksRoutes } from './hooks.routes.js';
import {
  CreatedHook,
  Hook,
  HookList,
  HookSecret,
  WebhookDelivery,
  WebhookDeliveryList,
} from './hooks.schemas.js';
import { hooksService, type HooksServiceDeps } from './hooks.service.js';

export function hooksModule(deps: HooksServiceDeps): ResourceModule<HooksFacade> {
  const hooks = hooksService(deps);
  return {
    name: 'hooks',
    schemas: [Hook, HookList, HookSecret, CreatedHook, WebhookDelivery, WebhookDeliveryList],
    routes: (app) => hooksRoutes(app, { hooks }),
    facade: hooksFacade,
  };
}
