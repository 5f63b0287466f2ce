/** The filterable and sortable fields of guides (DESIGN.md section 9). */
import { defineListSpec } from '../../query/list-spec.js';
import { Guide } from './guides.schemas.js';

export const guideList = defineListSpec(Guide, {
  resource: 'guides',
  table: 'guides',
  alias: 'g',
  fields: {
    id: { sql: 'id', sortable: true },
    seller: 'seller_id',
    user: 'user_id',
    name: { sql: 'name', sortable: true },
    email: 'email',
    createdAt: { sql: 'created_at', sortable: true },
  },
});
