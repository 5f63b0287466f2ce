/** The filterable and sortable fields of sellers (DESIGN.md section 9). */
import { defineListSpec } from '../../query/list-spec.js';
import { Seller } from './sellers.schemas.js';

export const sellerList = defineListSpec(Seller, {
  resource: 'sellers',
  table: 'users',
  alias: 'u',
  fields: {
    id: { sql: 'id', sortable: true },
    name: { sql: 'name', sortable: true },
  },
});
