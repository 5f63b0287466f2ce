/** All SQL on guides (deleted guides are invisible here except through findMany, for history). */
import type { Insertable, Kysely, Updateable } from 'kysely';
import { creationStamps, touchedAt } from '../../db/creation-clock.js';
import { listSource } from '../../db/list-source.js';
import type { DB, GuidesTable } from '../../db/types.js';
import type { ListSource } from '../../query/run.js';
import type { GuideRow } from './guides.schemas.js';

export function guidesRepository(db: Kysely<DB>) {
  const live = () => db.selectFrom('guides as g').where('g.deleted_at', 'is', null);

  return {
    listSource(): ListSource<GuideRow> {
      return listSource(live, (q) => q.selectAll('g'));
    },

    async find(sellerId: string, id: string): Promise<GuideRow | undefined> {
      return live()
        .selectAll('g')
        .where('g.seller_id', '=', sellerId)
        .where('g.id', '=', id)
        .executeTakeFirst();
    },

    /** Locks a live guide until the transaction ends: assignments of one guide take turns. */
    async lock(id: string): Promise<GuideRow | undefined> {
      return live().selectAll('g').where('g.id', '=', id).forUpdate().executeTakeFirst();
    },

    /**
     * The seller's next live guide after `afterId` (in id order) that no other transaction
     * holds, locked: auto-assignment skips a guide being assigned elsewhere rather than wait.
     */
    async lockNextFree(sellerId: string, afterId: string): Promise<GuideRow | undefined> {
      return live()
        .selectAll('g')
        .where('g.seller_id', '=', sellerId)
        .where('g.id', '>', afterId)
        .orderBy('g.id')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
    },

    async findMany(ids: readonly string[]): Promise<GuideRow[]> {
      if (ids.length === 0) return [];
      return db.selectFrom('guides').selectAll().where('id', 'in', ids).execute();
    },

    async findByUser(sellerId: string, userId: string): Promise<GuideRow | undefined> {
      return live()
        .selectAll('g')
        .where('g.seller_id', '=', sellerId)
        .where('g.user_id', '=', userId)
        .executeTakeFirst();
    },

    /** Guides (deleted ones too: past events keep them) linked to any of these users. */
    async linkedToUsers(userIds: readonly string[]): Promise<{ id: string; user_id: string }[]> {
      if (userIds.length === 0) return [];
      const rows = await db
        .selectFrom('guides')
        .select(['id', 'user_id'])
        .where('user_id', 'in', userIds)
        .execute();
      return rows.map((r) => ({ id: r.id, user_id: r.user_id! }));
    },

    /** Live guides linked to a user at any of `sellerIds`. */
    async idsLinkedTo(userId: string, sellerIds: readonly string[]): Promise<string[]> {
      const rows = await live()
        .select('g.id')
        .where('g.user_id', '=', userId)
        .where('g.seller_id', 'in', sellerIds)
        .execute();
      return rows.map((r) => r.id);
    },

    async insert(row: Insertable<GuidesTable>): Promise<GuideRow> {
      return db
        .insertInto('guides')
        .values({ ...creationStamps(), ...row })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /**
     * Inserts the profile unless the user already has a live one at the seller (the unique
     * index `guides_seller_user`): undefined then. Inside a transaction, where a unique
     * violation would end it; a concurrent insert of the same pair is waited for.
     */
    async insertUnlessLinked(row: Insertable<GuidesTable>): Promise<GuideRow | undefined> {
      return db
        .insertInto('guides')
        .values({ ...creationStamps(), ...row })
        .onConflict((oc) =>
          oc.columns(['seller_id', 'user_id']).where('deleted_at', 'is', null).doNothing(),
        )
        .returningAll()
        .executeTakeFirst();
    },

    async update(id: string, changes: Updateable<GuidesTable>): Promise<GuideRow> {
      return db
        .updateTable('guides')
        .set({ ...changes, updated_at: touchedAt('guides') })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** Deletes a guide: kept for the history of past events, invisible from now on. */
    async markDeleted(id: string, now: Date): Promise<void> {
      await db
        .updateTable('guides')
        .set({ deleted_at: now, updated_at: touchedAt('guides') })
        .where('id', '=', id)
        .execute();
    },
  };
}
