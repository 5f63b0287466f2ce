/**
 * Invitation tokens: the secret an invitation email carries, which alone accepts the
 * invitation (docs/security.md, "Invitations"). Only a digest is stored; a presented token is
 * digested and compared in constant time. The digest is domain-separated from API key
 * digests, so the two can never be confused.
 */
import { createHash, randomBytes } from 'node:crypto';
import { digestsEqual } from './api-keys.js';

/** How long an invitation's token accepts: a week, as a person may be away for days. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** 256 random bits, URL-safe (43 characters). */
export function generateInvitationToken(): string {
  return randomBytes(32).toString('base64url');
}

export function invitationDigest(token: string): Buffer {
  return createHash('sha256')
    .update('delegate-invitation\0', 'utf8')
    .update(token, 'utf8')
    .digest();
}

/** Whether `token` is the one whose digest is stored (constant time in the token's digest). */
export function invitationTokenMatches(token: string, digest: Buffer): boolean {
  return digestsEqual(invitationDigest(token), digest);
}

/** What binds a sealed token to its outbox message (associated data of the AES-GCM seal). */
export const sealedTokenContext = (outboxId: string) => `delegate_invitation:${outboxId}`;
