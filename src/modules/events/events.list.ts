/** The filterable and sortable fields of events (DESIGN.md section 9). */
import { sql } from 'kysely';
import { defineListSpec } from '../../query/list-spec.js';
import { Event } from './events.schemas.js';

export const eventList = defineListSpec(Event, {
  resource: 'events',
  table: 'events',
  alias: 'e',
  fields: {
    id: { sql: 'id', sortable: true },
    experience: 'experience_id',
    seller: 'seller_id',
    start: { sql: 'starts_at', sortable: true },
    end: { sql: 'ends_at', sortable: true },
    max: { sql: 'max', sortable: true },
    // The seats still bookable, as the view computes them (none when closed by hand): the
    // expression is the one indexed by events_open_seats.
    open: {
      sql: (alias) =>
        sql`(case when ${sql.ref(`${alias}.manual`)} is false then 0 else ${sql.ref(`${alias}.max`)} - ${sql.ref(`${alias}.reserved`)} end)`,
      sortable: true,
    },
    manual: 'manual',
    // `[{status, guide: {id}}]`: filtered by the guides' ids, declined ones included.
    guides: { sql: 'guide_ids', element: 'guide' },
    createdAt: { sql: 'created_at', sortable: true },
  },
  picksRows: ['experience'],
});
