/**
 * The invitation email's token in the outbox: sealed under the server secret when queued (in
 * the invitation's transaction), opened when the email is composed, and sent only while it is
 * still the invitation's live token. A leaked database alone leaks no usable token, as for
 * API keys (docs/security.md, "Invitations").
 */
import type { Kysely } from 'kysely';
import { newId } from '../db/ids.js';
import type { DB } from '../db/types.js';
import { delegatesFacade } from '../modules/delegates/index.js';
import type { ApiKeyCipher } from '../security/api-keys.js';
import { invitationTokenMatches, sealedTokenContext } from '../security/invitation-tokens.js';
import type { SealedStore } from '../security/secret-rotation.js';
import type { RenderedEmail } from './confirmation.template.js';
import { renderInvitation } from './invitation.template.js';
import {
  queueInvitation,
  sealedInvitationTokens,
  writeSealedInvitationToken,
  type ClaimedMessage,
} from './outbox.repository.js';

export interface InvitationMessage {
  delegateId: string;
  recipient: string;
  senderId: string;
  token: string;
}

/** Queues the invitation email; pass the invitation's transaction. */
export async function enqueueInvitation(
  db: Kysely<DB>,
  cipher: ApiKeyCipher,
  invitation: InvitationMessage,
): Promise<void> {
  const id = newId();
  await queueInvitation(db, {
    id,
    delegateId: invitation.delegateId,
    recipient: invitation.recipient,
    senderId: invitation.senderId,
    secret: cipher.encrypt(invitation.token, sealedTokenContext(id)),
  });
}

/**
 * The email of a queued invitation, or `skip` when it must not go: the invitation was
 * accepted, removed or has expired, or a newer invitation voided this token. A token that
 * cannot be opened throws, to be retried: during a BOOKING_SECRET rotation an instance not
 * yet restarted meets tokens sealed under the new secret, which the restarted instances open
 * (docs/operations.md). Skipping then dropped the invitation's only email for good.
 */
export async function composeInvitation(
  db: Kysely<DB>,
  cipher: ApiKeyCipher | undefined,
  message: ClaimedMessage,
): Promise<RenderedEmail | 'skip'> {
  if (!cipher) throw new Error('no cipher configured to open invitation tokens');
  if (!message.delegate_id || !message.secret) return 'skip';
  const invitation = await delegatesFacade.pendingInvitation(db, message.delegate_id);
  if (!invitation) return 'skip';
  let token: string;
  try {
    token = cipher.decrypt(message.secret, sealedTokenContext(message.id));
  } catch {
    throw new Error(
      'invitation token does not open with the configured secrets (a rotation under way?)',
    );
  }
  if (!invitationTokenMatches(token, invitation.digest)) return 'skip';
  return renderInvitation({
    sellerId: invitation.sellerId,
    sellerName: invitation.sellerName,
    delegateId: message.delegate_id,
    roles: invitation.roles,
    token,
    expiresAt: invitation.expiresAt,
  });
}

/** The sealed invitation tokens waiting in the outbox, for `cli rotate-secret`. */
export const sealedInvitations = (db: Kysely<DB>): SealedStore => ({
  name: 'invitation tokens',
  page: (afterId, limit) => sealedInvitationTokens(db, afterId, limit),
  boundTo: sealedTokenContext,
  write: (id, sealed) => writeSealedInvitationToken(db, id, sealed),
});
