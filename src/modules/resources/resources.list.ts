/** The filterable and sortable fields of resources (the query language). */
import { defineListSpec } from '../../query/list-spec.js';
import { Resource } from './resources.schemas.js';

export const resourceList = defineListSpec(Resource, {
  resource: 'resources',
  table: 'resources',
  alias: 'r',
  fields: {
    id: { sql: 'id', sortable: true },
    seller: 'seller_id',
    name: { sql: 'name', sortable: true },
    capacity: { sql: 'capacity', sortable: true },
    createdAt: { sql: 'created_at', sortable: true },
  },
});
