/**
 * What other modules may ask of delegations: whether a user is a delegate of a seller that
 * the seller added by id (so knows), and linking invitations by email to a new account.
 */
import type { Executor, Tx } from '../../db/unit-of-work.js';
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

  /** At sign-up: invitations to the new account's address take effect. */
  linkInvitations: (tx: Tx, userId: string, email: string): Promise<void> =>
    delegatesRepository(tx).linkInvitations(userId, email),
};

export type DelegatesFacade = typeof delegatesFacade;
