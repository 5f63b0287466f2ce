/**
 * Email: the transactional outbox (enqueue inside the booking's transaction), the order
 * confirmation (loaded through the modules' facades, rendered by the template) and the SMTP
 * dispatcher; invitation emails with their sealed tokens. What other code imports from mail/.
 */
export {
  enqueue,
  invitationsLastHour,
  sellerConfirmationsLastDay,
  sentToOthersLastHour,
  sentToRecipientLastDay,
  type InvitationWindow,
} from './outbox.repository.js';
export { composeInvitation, enqueueInvitation, sealedInvitations } from './invitation.js';
export { mailConsumer } from './mail.consumer.js';
export { withheldLog } from './withheld-log.js';
export { createDispatcher, type Dispatcher, type DispatcherOptions } from './dispatcher.js';
export { mailModule } from './mail.module.js';
export { loadConfirmation } from './confirmation.sources.js';
export type { GuideContact } from './confirmation.template.js';
export { outboxRepository } from './outbox.repository.js';
