/** The hooks module's public surface: the only file other code imports from it. */
export { hooksModule } from './hooks.module.js';
export { hooksFacade, type HooksFacade } from './hooks.facade.js';
export { hookList, deliveryList } from './hooks.list.js';
export {
  createWebhookDispatcher,
  type ResellerDelivery,
  type ResellerRenderer,
  type WebhookDispatcher,
} from './webhook.dispatcher.js';
export {
  RESELLER_EVENTS,
  ResellerHookRefusal,
  type ResellerEvent,
  type ResellerHookView,
} from './reseller-hooks.js';
export { webhookSender } from './webhook-sender.js';
export { EVENT_CATALOGUE, EVENT_NAMES } from './event-catalogue.js';
