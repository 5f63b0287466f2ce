/**
 * Email: the transactional outbox (enqueue inside the booking's transaction), the order
 * confirmation template and the SMTP dispatcher. What other modules import from mail/.
 */
export { enqueue } from './outbox.repository.js';
export { createDispatcher, type Dispatcher, type DispatcherOptions } from './dispatcher.js';
export type { GuideContact } from './confirmation.template.js';
