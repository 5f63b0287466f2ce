/**
 * Sending an invitation by email: a fresh token for an invitation not accepted yet (any
 * earlier one is void from then on) and the email that carries it, in the invitation's
 * transaction, within the hourly bounds that keep invitations from being a mail relay
 * (docs/security.md, "Invitations").
 */
import type { Tx } from '../../db/unit-of-work.js';
import { rateLimited } from '../../domain/errors.js';
import {
  INVITATION_LIFETIME_MS,
  generateInvitationToken,
  invitationDigest,
} from '../../security/invitation-tokens.js';
import { delegatesRepository } from './delegates.repository.js';

/** What the invitation email needs: mail/ seals the token into the outbox row. */
export interface InvitationToSend {
  delegateId: string;
  recipient: string;
  /** The account that invited (the seller or its seller-admin). */
  senderId: string;
  token: string;
}

/** Invitation emails in the last hour, and when the oldest leaves it (mail/'s count). */
export interface RecentInvitations {
  toAddress: { count: number; freeInMs: number };
  fromSender: { count: number; freeInMs: number };
}

/**
 * Invitation emails an inviting account sends per hour: to one address (sending again to
 * correct the roles is fine, a loop is a mail bomb), and in all. Anyone may sign up as a
 * seller and invite any address, and the email goes from the service's own sender.
 */
export const INVITATIONS_PER_ADDRESS_PER_HOUR = 3;
export const INVITATIONS_PER_SENDER_PER_HOUR = 30;

/** How invitations are mailed (app.ts passes mail/'s). */
export interface InvitationMail {
  /** Queues the invitation email in the invitation's transaction. */
  sendInvitation: (tx: Tx, invitation: InvitationToSend) => Promise<void>;
  /** The sender's invitation emails of the last hour, to the address and in all, under its lock. */
  recentInvitations: (tx: Tx, recipient: string, senderId: string) => Promise<RecentInvitations>;
}

/** 429: the invitation is not made nor changed (its transaction rolls back). */
const tooManyInvitations = (detail: string, freeInMs: number) =>
  rateLimited(`Too many invitations: ${detail}; retry later.`, freeInMs);

/** A new token and its email, both in `tx`; an accepted invitation gets none. */
export async function invite(
  mail: InvitationMail,
  tx: Tx,
  to: { delegateId: string; email: string; senderId: string },
): Promise<void> {
  const token = generateInvitationToken();
  const issued = await delegatesRepository(tx).issueToken(
    to.delegateId,
    invitationDigest(token),
    INVITATION_LIFETIME_MS,
  );
  if (!issued) return;
  const recent = await mail.recentInvitations(tx, to.email, to.senderId);
  if (recent.toAddress.count >= INVITATIONS_PER_ADDRESS_PER_HOUR)
    throw tooManyInvitations(
      `an account sends one address at most ${INVITATIONS_PER_ADDRESS_PER_HOUR} invitations an hour`,
      recent.toAddress.freeInMs,
    );
  if (recent.fromSender.count >= INVITATIONS_PER_SENDER_PER_HOUR)
    throw tooManyInvitations(
      `an account sends at most ${INVITATIONS_PER_SENDER_PER_HOUR} invitations an hour`,
      recent.fromSender.freeInMs,
    );
  await mail.sendInvitation(tx, {
    delegateId: to.delegateId,
    recipient: to.email,
    senderId: to.senderId,
    token,
  });
}
