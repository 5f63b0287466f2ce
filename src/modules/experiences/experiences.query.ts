/** The filterable and sortable fields of experiences (DESIGN.md section 9). */
import type { ResourceSpec } from '../../query/types.js';
import { refId } from '../shared/views.js';

type O = Record<string, unknown>;

export const experienceSpec: ResourceSpec = {
  resource: 'experiences',
  table: 'experiences',
  alias: 'x',
  fields: [
    { name: 'id', type: 'id', sql: 'id', read: (o: O) => o.id, sortable: true },
    { name: 'seller', type: 'id', sql: 'seller_id', read: (o: O) => refId(o.seller) },
    { name: 'name', type: 'string', sql: 'name', read: (o: O) => o.name, sortable: true },
    { name: 'price', type: 'number', sql: 'price', read: (o: O) => o.price, sortable: true },
    {
      name: 'priceType',
      type: 'enum',
      enumValues: ['person', 'outing'],
      sql: 'price_type',
      read: (o: O) => o.priceType,
    },
    { name: 'currency', type: 'string', sql: 'currency', read: (o: O) => o.currency },
    {
      name: 'duration',
      type: 'integer',
      sql: 'duration',
      read: (o: O) => o.duration,
      sortable: true,
    },
    { name: 'visible', type: 'boolean', sql: 'visible', read: (o: O) => o.visible },
    {
      name: 'createdAt',
      type: 'datetime',
      sql: 'created_at',
      read: (o: O) => o.createdAt,
      sortable: true,
    },
  ],
};
