/** All SQL on resellers' hooks (octo/webhooks): hooks rows that name a reseller credential. */
import type { Kysely } from 'kysely';
import { creationStamps, touchedAt } from '../../db/creation-clock.js';
import type { DB } from '../../db/types.js';
import type { HookRow } from './hooks.repository.js';

export function resellerHooksRepository(db: Kysely<DB>) {
  return {
    /** The new hook, or undefined when the reseller has one for this event and URL. */
    async insert(hook: {
      id: string;
      owner_id: string;
      reseller_id: string;
      event_name: string;
      url: string;
      secret_ciphertext: Buffer;
    }): Promise<HookRow | undefined> {
      return db
        .insertInto('hooks')
        .values({ ...creationStamps(), ...hook, api_version: 'octo' })
        .onConflict((oc) => oc.constraint('hooks_owner_event_url').doNothing())
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * Locks the credential's row until the transaction ends, if it is live: a revocation
     * updates that row before it deletes the credential's hooks, so it waits for a creation
     * holding the lock (and then deletes its hook), or the creation waits for it (and then
     * finds it revoked); two creations of one reseller take turns (the cap). Whether it is live.
     */
    async lockLiveCredential(resellerId: string): Promise<boolean> {
      const row = await db
        .selectFrom('reseller_credentials')
        .select('id')
        .where('id', '=', resellerId)
        .where('revoked_at', 'is', null)
        .forUpdate()
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The reseller's own hook for this event and URL, if it has one. */
    async findOwn(
      resellerId: string,
      eventName: string,
      url: string,
    ): Promise<HookRow | undefined> {
      return db
        .selectFrom('hooks')
        .selectAll()
        .where('reseller_id', '=', resellerId)
        .where('event_name', '=', eventName)
        .where('url', '=', url)
        .executeTakeFirst();
    },

    /** A disabled hook enabled again with a new secret; undefined when it is not disabled. */
    async reenable(id: string, secretCiphertext: Buffer): Promise<HookRow | undefined> {
      return db
        .updateTable('hooks')
        .set({
          status: 'enabled',
          disabled_at: null,
          secret_ciphertext: secretCiphertext,
          updated_at: touchedAt('hooks'),
        })
        .where('id', '=', id)
        .where('status', '=', 'disabled')
        .returningAll()
        .executeTakeFirst();
    },

    async countOf(resellerId: string): Promise<number> {
      const row = await db
        .selectFrom('hooks')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('reseller_id', '=', resellerId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async list(resellerId: string): Promise<HookRow[]> {
      return db
        .selectFrom('hooks')
        .selectAll()
        .where('reseller_id', '=', resellerId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    async remove(resellerId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('hooks')
        .where('reseller_id', '=', resellerId)
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /** Every hook of a credential (it was revoked). */
    async removeAll(resellerId: string): Promise<void> {
      await db.deleteFrom('hooks').where('reseller_id', '=', resellerId).execute();
    },

    /** Which of these credentials are live (not revoked). */
    async liveOf(resellerIds: readonly string[]): Promise<Set<string>> {
      if (resellerIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('reseller_credentials')
        .select('id')
        .where('id', 'in', resellerIds)
        .where('revoked_at', 'is', null)
        .execute();
      return new Set(rows.map((r) => r.id));
    },

    /** Which of these orders are bookings of these resellers: order id -> booker id. */
    async bookersOf(orderIds: readonly string[]): Promise<Map<string, string>> {
      if (orderIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('reseller_bookings')
        .select(['order_id', 'booker_id'])
        .where('order_id', 'in', orderIds)
        .execute();
      return new Map(rows.map((r) => [r.order_id, r.booker_id]));
    },

    /** Which of these experiences are visible (what a reseller may hear of). */
    async visibleOf(experienceIds: readonly string[]): Promise<Set<string>> {
      if (experienceIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('experiences')
        .select('id')
        .where('id', 'in', experienceIds)
        .where('visible', '=', true)
        .execute();
      return new Set(rows.map((r) => r.id));
    },
  };
}
