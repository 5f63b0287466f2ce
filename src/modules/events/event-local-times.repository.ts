/** The SQL of events' stored local times (new-event.ts): finding stale ones, writing them. */
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../../db/types.js';
import { eventsWithExperience } from './events.repository.js';
import type { LocalTimes } from './new-event.js';

export function eventLocalTimesRepository(db: Kysely<DB>) {
  return {
    /**
     * Events (of `ids`, or any) after `after` in id order whose stored local times are not
     * of their experience's zone, with what they are made from.
     */
    async stale(after: string, limit: number, ids?: readonly string[]) {
      let stale = eventsWithExperience(db)
        .clearSelect()
        .select(['e.id', 'e.starts_at', 'e.ends_at', 'x.timezone'])
        .where(sql<SqlBool>`e.local_zone is distinct from x.timezone`)
        .where('e.id', '>', after)
        .orderBy('e.id')
        .limit(limit);
      if (ids) stale = stale.where('e.id', 'in', ids);
      return stale.execute();
    },

    /** Stores events' local times in one statement; not a change (`updated_at` stays). */
    async write(rows: readonly (LocalTimes & { id: string })[]): Promise<void> {
      if (rows.length === 0) return;
      const column = (pick: (row: LocalTimes & { id: string }) => string) => rows.map(pick);
      await sql`update events set local_zone = t.zone, local_start = t.start_text, local_end = t.end_text
        from unnest(${column((r) => r.id)}::text[], ${column((r) => r.local_zone)}::text[],
          ${column((r) => r.local_start)}::text[], ${column((r) => r.local_end)}::text[])
          as t(id, zone, start_text, end_text)
        where events.id = t.id`.execute(db);
    },
  };
}
