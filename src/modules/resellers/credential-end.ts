/**
 * What ends with a reseller credential, in the transaction that revokes it (the seller's
 * DELETE, or the end of the delegation of the user who made it): every instance drops it
 * from its cache once that commits (users/caller-cache.ts), and its webhooks are removed.
 * The revoking transaction has already updated the credential's row, so it holds the lock a
 * webhook's creation takes on it (hooks/reseller-hooks.ts): a creation that had it first has
 * committed, and its hook is removed here; one that comes after finds the credential revoked.
 */
import type { Tx } from '../../db/unit-of-work.js';
import { hooksFacade } from '../hooks/index.js';
import { announceCallerChange } from '../users/index.js';

export async function endCredential(tx: Tx, id: string): Promise<void> {
  await announceCallerChange(tx, id);
  await hooksFacade.resellers.removeAll(tx, id);
}
