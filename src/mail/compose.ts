/**
 * What a claimed outbox message is, as an email, at the moment it is sent: its text rendered
 * from the order, invitation or hook as they are now, or the reason it must not go (skipped)
 * or not yet (a cancellation waiting for its confirmation). The dispatcher sends it.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { hooksFacade } from '../modules/hooks/index.js';
import { resellersFacade } from '../modules/resellers/index.js';
import type { ApiKeyCipher } from '../security/api-keys.js';
import type { LoadConfirmation } from './confirmation.loader.js';
import { renderConfirmation, type RenderedEmail } from './confirmation.template.js';
import { renderHookDisabled, renderResellerHookDisabled } from './hook-disabled.template.js';
import { composeInvitation } from './invitation.js';
import { outboxRepository, type ClaimedMessage } from './outbox.repository.js';

/** Why a message is not sent at all (logged). */
export interface Skip {
  skip: string;
}

/** Where a message's content is read from. */
export interface Sources {
  db: Kysely<DB>;
  cipher: ApiKeyCipher | undefined;
  loadConfirmation: LoadConfirmation;
}

/**
 * The email a message stands for, read when it is sent; a skip when it must not go, `later`
 * when it depends on one not settled yet (a cancellation waits for its confirmation: it
 * goes only to a customer who was sent the confirmation).
 */
export async function composeEmail(
  { db, cipher, loadConfirmation }: Sources,
  message: ClaimedMessage,
): Promise<RenderedEmail | Skip | 'later'> {
  if (message.kind === 'delegate_invitation') {
    const email = await composeInvitation(db, cipher, message);
    return email === 'skip' ? { skip: 'no longer due' } : email;
  }
  if (message.kind === 'hook_disabled') {
    const hook = message.hook_id && (await hooksFacade.findWithReseller(db, message.hook_id));
    if (!hook) return { skip: 'no longer due' }; // deleted since: nothing to tell
    if (hook.resellerId !== null) {
      // A reseller's receiver: its URL is not the seller's to see, and the seller's enable
      // endpoint does not reach it (only the reseller can enable it, docs/octo.md).
      const reseller = await resellersFacade.find(db, hook.resellerId);
      if (!reseller || reseller.revoked) return { skip: 'no longer due' };
      return renderResellerHookDisabled({ resellerName: reseller.name, eventName: hook.eventName });
    }
    return renderHookDisabled({ hookId: hook.id, eventName: hook.eventName, url: hook.url });
  }
  const input = await loadConfirmation(db, message.order_id!);
  if (!input) throw new Error(`order ${message.order_id} not found`);
  if (message.kind === 'order_cancellation') {
    const confirmation = (await outboxRepository(db).find(message.order_id!, 'order_confirmation'))
      ?.status;
    if (confirmation === 'pending') return 'later';
    if (confirmation !== 'sent') return { skip: 'no longer due' };
    return renderConfirmation(input, 'cancellation');
  }
  // Canceled after this was queued (and the cancellation found it already claimed).
  if (input.order.status === 'canceled') return { skip: 'no longer due' };
  // The order's address changed and this was not readdressed (it was claimed then, or the
  // new address was past the relay caps: mail.consumer.ts): the booking code and itinerary
  // must not go to the old one, a typo's stranger.
  if (input.order.customerEmail?.toLowerCase() !== message.recipient.toLowerCase())
    return { skip: "the order's customerEmail changed" };
  return renderConfirmation(input);
}
