/** The filterable and sortable fields of check-ins (the query language): the dock's audit trail. */
import { defineListSpec } from '../../query/list-spec.js';
import { Checkin } from './checkins.schemas.js';

export const checkinList = defineListSpec(Checkin, {
  resource: 'check-ins',
  table: 'checkins',
  alias: 'c',
  fields: {
    id: { sql: 'id', sortable: true },
    seller: 'seller_id',
    guest: 'guest_id',
    order: 'order_id',
    event: 'event_id',
    source: 'source',
    createdAt: { sql: 'created_at', sortable: true },
    undoneAt: { sql: 'undone_at', sortable: true },
  },
});
