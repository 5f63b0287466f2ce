/**
 * What other code may ask of checkout: revoking the publishable keys a delegate made when its
 * delegation ends (the delegates module, through app-modules.ts).
 */
import type { Tx } from '../../db/unit-of-work.js';
import { publishableKeysRepository } from './publishable-keys.repository.js';

export const checkoutFacade = {
  /**
   * Revokes the live publishable keys of `sellerId` that `userId` made, in `tx`; their ids.
   * Refused from the commit on, everywhere: every request reads its key from the table
   * (checkout.guard.ts), so no instance holds one to forget.
   */
  revokeMadeBy: (tx: Tx, sellerId: string, userId: string): Promise<string[]> =>
    publishableKeysRepository(tx).revokeMadeBy(sellerId, userId, new Date()),
};

export type CheckoutFacade = typeof checkoutFacade;
