/** The filterable and sortable fields of experiences (DESIGN.md section 9). */
import { defineListSpec } from '../../query/list-spec.js';
import { Experience } from './experiences.schemas.js';

export const experienceList = defineListSpec(Experience, {
  resource: 'experiences',
  table: 'experiences',
  alias: 'x',
  fields: {
    id: { sql: 'id', sortable: true },
    seller: 'seller_id',
    name: { sql: 'name', sortable: true },
    price: { sql: 'price', sortable: true },
    priceType: 'price_type',
    currency: 'currency',
    duration: { sql: 'duration', sortable: true },
    visible: 'visible',
    createdAt: { sql: 'created_at', sortable: true },
  },
});
