/** The hooks module's public surface: the only file other code imports from it. */
export { hooksModule } from './hooks.module.js';
export { Hook, WebhookDelivery, type HookView } from './hooks.schemas.js';
export { hookList, deliveryList } from './hooks.list.js';
export { hooksRepository, type HookRow } from './hooks.repository.js';
export {
  createWebhookDispatcher,
  renderPayload,
  type WebhookDispatcher,
} from './webhook.dispatcher.js';
export { webhookSender } from './webhook-sender.js';
export { isPublicAddress, urlProblems } from './destination.js';
