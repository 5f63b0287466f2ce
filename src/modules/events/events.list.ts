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
    // The expression is the one indexed by events_open.
    open: {
      sql: (alias) => sql`(${sql.ref(`${alias}.max`)} - ${sql.ref(`${alias}.reserved`)})`,
      sortable: true,
    },
    guides: 'guide_ids',
    createdAt: { sql: 'created_at', sortable: true },
  },
});
