/**
 * The hooks module assembled: routes over the service, the facade, and the webhook
 * dispatcher as its worker when the configuration turns dispatching on.
 */
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
import { createWebhookDispatcher, type WebhookDispatcherOptions } from './webhook.dispatcher.js';

export function hooksModule(
  deps: HooksServiceDeps & {
    /** Delivers on this instance with these options; absent: no dispatcher here. */
    dispatch?: Omit<WebhookDispatcherOptions, 'db' | 'cipher'>;
  },
): ResourceModule<HooksFacade> {
  const hooks = hooksService(deps);
  const { dispatch } = deps;
  return {
    name: 'hooks',
    schemas: [Hook, HookList, HookSecret, CreatedHook, WebhookDelivery, WebhookDeliveryList],
    routes: (app) => hooksRoutes(app, { hooks }),
    facade: hooksFacade,
    workers: dispatch
      ? [createWebhookDispatcher({ db: deps.db, cipher: deps.cipher, ...dispatch })]
      : [],
  };
}
