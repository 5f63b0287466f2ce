/** The filterable and sortable fields of a seller's delegates (the query language). */
import { defineListSpec } from '../../query/list-spec.js';
import { Delegate } from './delegates.schemas.js';

export const delegateList = defineListSpec(Delegate, {
  resource: 'delegates',
  table: 'delegates',
  alias: 'd',
  fields: {
    id: { sql: 'id', sortable: true },
    seller: 'seller_id',
    user: 'user_id',
    createdAt: { sql: 'created_at', sortable: true },
  },
});
