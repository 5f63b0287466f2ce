/**
 * The SQL of departures over a range: one experience's events between two instants, a
 * range scan on the unique index `events (experience_id, starts_at)` whatever the range's
 * length (a year of the OCTo calendar is one statement, not a list of a thousand starts);
 * and how many events experiences have opened by hand over a range, the departures their
 * schedules do not count (availability's bound).
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { BookedEvent } from './availability.js';

export function departuresRepository(db: Kysely<DB>) {
  return {
    async between(experienceId: string, from: Date, to: Date): Promise<BookedEvent[]> {
      const rows = await db
        .selectFrom('events')
        .select(['starts_at', 'max', 'reserved', 'manual'])
        .where('experience_id', '=', experienceId)
        .where('starts_at', '>=', from)
        .where('starts_at', '<', to)
        .orderBy('starts_at')
        .execute();
      return rows.map((r) => ({
        start: r.starts_at,
        max: r.max,
        reserved: r.reserved,
        manual: r.manual,
      }));
    },

    /**
     * How many events of these experiences opened by hand start between `from` and `to`,
     * counted up to `cap` + 1 only: past the bound the exact number does not matter, and a
     * count of millions would be the work the bound refuses.
     */
    async openedByHandBetween(
      experienceIds: readonly string[],
      from: Date,
      to: Date,
      cap: number,
    ): Promise<number> {
      const row = await db
        .selectFrom((eb) =>
          eb
            .selectFrom('events')
            .select(sql<number>`1`.as('one'))
            .where('experience_id', 'in', experienceIds)
            // Written out, not bound: a generic plan can use the partial index
            // events_opened_by_hand (migration 0029) only for a predicate it can see.
            .where(sql<boolean>`manual`)
            .where('starts_at', '>=', from)
            .where('starts_at', '<', to)
            .limit(cap + 1)
            .as('found'),
        )
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
