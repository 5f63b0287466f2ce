/**
 * What a delegate made with a capability (hooks, reseller credentials, publishable keys)
 * ends when it no longer holds that capability at the seller: removed, or given roles
 * without it (docs/security.md, "What a delegate made ends with its delegation").
 */
import type { Tx } from '../../db/unit-of-work.js';
import { CAPABILITIES, type Capability } from '../../domain/roles.js';
import { usersFacade as users } from '../users/index.js';

/**
 * Ends, in `tx`, what `userId` made for `sellerId` with a capability it no longer holds
 * there (a hook disabled, a credential revoked; anything other instances cache is announced
 * in `tx` by its module); the ids of what ended.
 */
export type EndMadeBy = (tx: Tx, sellerId: string, userId: string) => Promise<readonly string[]>;

/** Each capability's enders (app-modules.ts passes the hooks', resellers' and checkout's). */
export type MadeWith = Partial<Record<Capability, readonly EndMadeBy[]>>;

/**
 * Ends, in `tx`, what `userId` made for the seller with each capability its `roles` there
 * no longer grant: the hooks, credentials and keys it made stop with its rights to manage
 * them. What the seller or anyone else made stays, and so does an admin's: its rights never
 * rested on the delegation. Whether anything ended.
 */
export async function endWhatItMade(
  madeWith: MadeWith,
  tx: Tx,
  delegation: { sellerId: string; userId: string; roles: readonly string[] },
): Promise<boolean> {
  const { sellerId, userId, roles } = delegation;
  if ((await users.find(tx, userId))?.roles.includes('ROLE_ADMIN')) return false;
  let ended = 0;
  for (const [capability, ends] of Object.entries(madeWith) as [Capability, EndMadeBy[]][]) {
    const granted: readonly string[] = CAPABILITIES[capability];
    if (roles.some((role) => granted.includes(role))) continue;
    for (const end of ends) ended += (await end(tx, sellerId, userId)).length;
  }
  return ended > 0;
}
