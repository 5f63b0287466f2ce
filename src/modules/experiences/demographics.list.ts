/**
 * The filterable and sortable fields of guest types (DESIGN.md section 9). Guest types live
 * in their experience's jsonb, so no index serves a field of their own: the list is answered
 * per seller or per experience (both indexed on experiences), the way clients read it
 * (docs/booking.md), not by unnesting every experience.
 */
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
  requiresOneOf: ['seller', 'experience'],
});
