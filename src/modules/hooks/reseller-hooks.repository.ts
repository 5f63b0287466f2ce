/** All SQL on resellers' hooks (octo/webhooks): hooks rows that name a reseller credential. */
import type { Kysely } from 'kysely';
import { creationStamps } from '../../db/creation-clock.js';
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
