/**
 * The SQL of auto-assignment's candidates (events/assignment.ts, through the guides facade):
 * the seller's guides that may take a departure, read in pages, and those chosen locked.
 */
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../../db/types.js';
import type { GuideRow } from './guides.schemas.js';

export function guideCandidatesRepository(db: Kysely<DB>) {
  // Live guides only, as every read of guides.repository.ts.
  const live = () => db.selectFrom('guides as g').where('g.deleted_at', 'is', null);

  return {
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
  };
}
