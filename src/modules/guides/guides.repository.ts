/** All SQL on guides (deleted guides are invisible here except through findMany, for history). */
import { sql, type Insertable, type Kysely, type SqlBool, type Updateable } from 'kysely';
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

    /**
     * The seller's live guides that auto-assignment may consider for `event`, in id order
     * after `after`: with at least one `available` schedule (a guide without one is never
     * available, so it is not read at all), not among `exclude` (on the event already), and
     * not on another event overlapping it that they have not declined (the overlap rule of
     * event-guides.repository.ts' overlappingWithGuide, as a filter). With `ids`, only those.
     * Locks nothing: the schedule rule runs on the rows, and the chosen ones are locked and
     * read again (`lockFree`).
     */
    async freeCandidates(
      sellerId: string,
      event: { id: string; starts_at: Date; ends_at: Date },
      options: {
        after?: string;
        ids?: readonly string[];
        exclude: readonly string[];
        limit: number;
      },
    ): Promise<GuideRow[]> {
      let query = live()
        .selectAll('g')
        .where('g.seller_id', '=', sellerId)
        .where(sql<SqlBool>`g.schedules @> '[{"type": "available"}]'::jsonb`)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('events as e')
                .select(sql`1`.as('one'))
                .where(sql<SqlBool>`e.guide_ids @> array[g.id]::text[]`)
                .where(sql<SqlBool>`coalesce(e.guide_statuses ->> g.id, 'confirmed') <> 'declined'`)
                .where('e.id', '<>', event.id)
                .where('e.starts_at', '<', event.ends_at)
                .where('e.ends_at', '>', event.starts_at),
            ),
          ),
        );
      if (options.after !== undefined) query = query.where('g.id', '>', options.after);
      if (options.ids !== undefined) {
        if (options.ids.length === 0) return [];
        query = query.where('g.id', 'in', options.ids);
      }
      if (options.exclude.length > 0) query = query.where('g.id', 'not in', options.exclude);
      return query.orderBy('g.id').limit(options.limit).execute();
    },

    /**
     * Those of `ids` that are live and that no other transaction holds, locked until the
     * transaction ends, in id order: auto-assignment skips a guide being assigned elsewhere
     * rather than wait for it.
     */
    async lockFree(ids: readonly string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await live()
        .select('g.id')
        .where('g.id', 'in', ids)
        .orderBy('g.id')
        .forUpdate()
        .skipLocked()
        .execute();
      return rows.map((r) => r.id);
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
