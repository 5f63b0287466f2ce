/** The filterable and sortable fields of events (DESIGN.md section 9). */
import { sql } from 'kysely';
import type { ResourceSpec } from '../../query/types.js';
import { refId } from '../shared/views.js';

type O = Record<string, unknown>;

export const eventSpec: ResourceSpec = {
  resource: 'events',
  table: 'events',
  alias: 'e',
  fields: [
    { name: 'id', type: 'id', sql: 'id', read: (o: O) => o.id, sortable: true },
    { name: 'experience', type: 'id', sql: 'experience_id', read: (o: O) => refId(o.experience) },
    { name: 'seller', type: 'id', sql: 'seller_id', read: (o: O) => refId(o.seller) },
    { name: 'start', type: 'datetime', sql: 'starts_at', read: (o: O) => o.start, sortable: true },
    { name: 'end', type: 'datetime', sql: 'ends_at', read: (o: O) => o.end, sortable: true },
    { name: 'max', type: 'integer', sql: 'max', read: (o: O) => o.max, sortable: true },
    {
      name: 'open',
      type: 'integer',
      // The expression is the one indexed by events_open.
      sql: (alias) => sql`(${sql.ref(`${alias}.max`)} - ${sql.ref(`${alias}.reserved`)})`,
      read: (o: O) => o.open,
      sortable: true,
    },
    { name: 'guides', type: 'id-array', sql: 'guide_ids', read: (o: O) => o.guides },
    {
      name: 'createdAt',
      type: 'datetime',
      sql: 'created_at',
      read: (o: O) => o.createdAt,
      sortable: true,
    },
  ],
};
