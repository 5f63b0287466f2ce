/**
 * The SQL of departures' windows for the room on resources (resource-room.ts): the events
 * whose window is not what their experience's duration says now (the duration changed, and
 * the event keeps its end until Xola's upsert saves it again). Bookings take resources over
 * the event's window, so availability must count over it too.
 */
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../../db/types.js';

export function eventWindowsRepository(db: Kysely<DB>) {
  return {
    /**
     * Of these experiences' events starting in `[from, to]`, those whose end is not their
     * start plus the experience's duration (one range scan; usually no row).
     */
    async otherThanDuration(
      experienceIds: readonly string[],
      from: Date,
      to: Date,
    ): Promise<{ experience_id: string; starts_at: Date; ends_at: Date }[]> {
      if (experienceIds.length === 0) return [];
      return db
        .selectFrom('events as e')
        .innerJoin('experiences as x', 'x.id', 'e.experience_id')
        .select(['e.experience_id', 'e.starts_at', 'e.ends_at'])
        .where('e.experience_id', 'in', experienceIds)
        .where('e.starts_at', '>=', from)
        .where('e.starts_at', '<=', to)
        .where(sql<SqlBool>`e.ends_at <> e.starts_at + x.duration * interval '1 minute'`)
        .execute();
    },
  };
}
