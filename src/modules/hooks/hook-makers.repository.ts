/**
 * The SQL behind re-checking, in a hook's creating transaction, that a seller-admin delegate
 * still may make it: its delegation's row, share-locked. The delegates module changes or
 * deletes that row before it disables what the delegate made (delegates/made-by.ts), so the
 * two serialize: the change waits for a creation holding the lock (and then disables its
 * hook), or the creation waits for the change (and then reads the roles it left).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

export function hookMakersRepository(db: Kysely<DB>) {
  return {
    /**
     * The roles `userId` holds at `sellerId` as a delegate (an invitation counts once
     * accepted, as when a caller authenticates), locked until the transaction ends; undefined
     * when it is none.
     */
    async lockDelegation(sellerId: string, userId: string): Promise<string[] | undefined> {
      const row = await db
        .selectFrom('delegates')
        .select('roles')
        .where('seller_id', '=', sellerId)
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('email', 'is', null), eb('accepted_at', 'is not', null)]))
        .forShare()
        .executeTakeFirst();
      return row?.roles;
    },
  };
}
