/**
 * All SQL on guides but auto-assignment's candidates (guide-candidates.repository.ts); deleted
 * guides are invisible here except through findMany, for history.
 */
import type { Insertable, Kysely, Updateable } from 'kysely';
import { creationStamps, touchedAt } from '../../db/creation-clock.js';
import { listSource } from '../../db/list-source.js';
import type { DB, GuidesTable } from '../../db/types.js';
import type { ListSource } from '../../query/run.js';
import type { GuideRow } from './guides.schemas.js';

/**
 * Guides a caller may have an older client's user ids translated to (events.versions.ts):
 * those of `sellers` (every seller's for 'all') and the guide ids in `own`.
 */
export interface GuideScope {
  sellers: 'all' | readonly string[];
  own: readonly string[];
}

export function guidesRepository(db: Kysely<DB>) {
  const live = () => db.selectFrom('guides as g').where('g.deleted_at', 'is', null);

  /** Live guides within `scope`; undefined when it names none (no query is needed). */
  const scoped = ({ sellers, own }: GuideScope) => {
    if (sellers === 'all') return live();
    if (sellers.length === 0 && own.length === 0) return undefined;
    return live().where((eb) =>
      eb.or([
        ...(sellers.length > 0 ? [eb('g.seller_id', 'in', sellers)] : []),
        ...(own.length > 0 ? [eb('g.id', 'in', own)] : []),
      ]),
    );
  };

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

    /**
     * Live guides linked to any of these users, among those `within` names (the guides of its
     * sellers, or all sellers', and its own guide ids).
     */
    async linkedToUsers(
      userIds: readonly string[],
      within: GuideScope,
    ): Promise<{ id: string; user_id: string }[]> {
      if (userIds.length === 0) return [];
      const rows = await scoped(within)
        ?.select(['g.id', 'g.user_id'])
        .where('g.user_id', 'in', userIds)
        .execute();
      return (rows ?? []).map((r) => ({ id: r.id, user_id: r.user_id! }));
    },

    /** Those of these guides that are live, linked to a user and `within` the scope, with it. */
    async usersLinkedTo(
      guideIds: readonly string[],
      within: GuideScope,
    ): Promise<{ id: string; user_id: string }[]> {
      if (guideIds.length === 0) return [];
      const rows = await scoped(within)
        ?.select(['g.id', 'g.user_id'])
        .where('g.id', 'in', guideIds)
        .where('g.user_id', 'is not', null)
        .execute();
      return (rows ?? []).map((r) => ({ id: r.id, user_id: r.user_id! }));
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

    /** Changes a live guide; undefined when there is none (deleted meanwhile). */
    async update(id: string, changes: Updateable<GuidesTable>): Promise<GuideRow | undefined> {
      return db
        .updateTable('guides')
        .set({ ...changes, updated_at: touchedAt('guides') })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * Deletes a live guide: kept for the history of past events, invisible from now on.
     * False when it was deleted already (a second DELETE changes nothing).
     */
    async markDeleted(id: string, now: Date): Promise<boolean> {
      const result = await db
        .updateTable('guides')
        .set({ deleted_at: now, updated_at: touchedAt('guides') })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
