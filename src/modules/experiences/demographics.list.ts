/** The filterable and sortable fields of guest types (DESIGN.md section 9). */
import { defineListSpec } from '../../query/list-spec.js';
import { Demographic } from './demographics.schemas.js';

export const demographicList = defineListSpec(Demographic, {
  resource: 'demographics',
  table: 'demographics',
  alias: 'd',
  fields: {
    id: { sql: 'id', sortable: true },
    seller: 'seller_id',
    experience: 'experience_id',
    label: { sql: 'label', sortable: true },
    code: 'code',
    price: { sql: 'price', sortable: true },
    visible: 'visible',
  },
});
