/**
 * The SQL of departures over a range: one experience's events between two instants, a
 * range scan on the unique index `events (experience_id, starts_at)` whatever the range's
 * length (a year of the OCTo calendar is one statement, not a list of a thousand starts).
 */
import type { Kysely } from 'kysely';
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
  };
}
