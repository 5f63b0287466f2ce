/**
 * What ends with a reseller credential, in the transaction that revokes it (the seller's
 * DELETE, or the end of the delegation of the user who made it): every instance drops it
 * from its cache once that commits (users/caller-cache.ts), its webhooks are removed, and
 * its holds end. The revoking transaction has already updated the credential's row, so it
 * holds the lock a webhook's creation takes on it (hooks/reseller-hooks.ts): a creation that
 * had it first has committed, and its hook is removed here; one that comes after finds the
 * credential revoked.
 *
 * Its holds (bookings reserved and not confirmed) are released through the orders module,
 * as the hold sweeper releases them: nobody can confirm, extend or cancel them with the
 * credential any more, and they would keep their seats from sale for up to 24 hours. What
 * it confirmed stays booked. The same row lock orders the release after every reserve under
 * way: a reserve holds the credential's row in share mode from the start of its booking
 * transaction (orders/reseller-reserve.service.ts), so the revoking update waited for those
 * already booking, whose holds are released here, and those after it find it revoked.
 */
import type { Tx } from '../../db/unit-of-work.js';
import type { EventSink } from '../../outbox/index.js';
import { hooksFacade } from '../hooks/index.js';
import { resellerBookings } from '../orders/index.js';
import { announceCallerChange } from '../users/index.js';

/** Where the released holds' `order.*` and seat `event.update` events go. */
export interface CredentialEndDeps {
  domainEvents?: EventSink;
}

export async function endCredential(tx: Tx, id: string, deps: CredentialEndDeps): Promise<void> {
  await announceCallerChange(tx, id);
  await hooksFacade.resellers.removeAll(tx, id);
  await resellerBookings.releaseHeldBy(deps, tx, id);
}
