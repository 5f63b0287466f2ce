/**
 * What other code may ask of delegations: whether a user is a delegate the seller knows, and
 * (for the invitation email) what a pending invitation shows.
 */
import type { Executor, Tx } from '../../db/unit-of-work.js';
import { delegatesRepository } from './delegates.repository.js';
import { isDisclosed } from './delegates.schemas.js';

/** A pending invitation as its email shows it, with the digest of its live token. */
export interface PendingInvitation {
  sellerId: string;
  sellerName: string;
  email: string;
  roles: string[];
  digest: Buffer;
  expiresAt: Date;
}

export const delegatesFacade = {
  /**
   * What a delegate of the seller may do now, read in `tx` with its delegation's row
   * share-locked: removing or changing the delegation changes that row before it ends what
   * the delegate made (made-by.ts), so a write checked this way (a hook being made) either
   * commits first and is ended by it, or waits and reads the roles it left.
   */
  lockedRoles: (tx: Tx, sellerId: string, userId: string): Promise<string[] | undefined> =>
    delegatesRepository(tx).lockedRoles(sellerId, userId),

  /**
   * A delegate the seller may know: added by user id, or invited by email and accepted. An
   * invitation not accepted does not count: nothing may reveal which account has that
   * address (docs/security.md).
   */
  isKnownDelegate: async (db: Executor, sellerId: string, userId: string): Promise<boolean> => {
    const row = await delegatesRepository(db).findByUser(sellerId, userId);
    return row !== undefined && isDisclosed(row);
  },

  /**
   * What the invitation email shows (the seller's name, the roles, the expiry) and the digest
   * of the live token, while the invitation may still be accepted.
   */
  pendingInvitation: async (
    db: Executor,
    delegateId: string,
  ): Promise<PendingInvitation | undefined> => {
    const row = await delegatesRepository(db).pendingInvitation(delegateId);
    return (
      row && {
        sellerId: row.seller_id,
        sellerName: row.seller_name,
        email: row.email,
        roles: row.roles,
        digest: row.digest,
        expiresAt: row.expires_at,
      }
    );
  },
};

export type DelegatesFacade = typeof delegatesFacade;
