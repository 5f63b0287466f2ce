/**
 * What other code may ask of delegations: whether a user is a delegate the seller knows, and
 * (for the invitation email) what a pending invitation shows.
 */
import type { Executor } from '../../db/unit-of-work.js';
import { delegatesRepository } from './delegates.repository.js';
import { isDisclosed } from './delegates.schemas.js';

export const delegatesFacade = {
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
  pendingInvitation: (db: Executor, delegateId: string) =>
    delegatesRepository(db).pendingInvitation(delegateId),
};

export type DelegatesFacade = typeof delegatesFacade;
