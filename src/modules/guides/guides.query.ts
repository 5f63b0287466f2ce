/** The filterable and sortable fields of guides (DESIGN.md section 9). */
import type { ResourceSpec } from '../../query/types.js';
import { refId } from '../shared/views.js';

type O = Record<string, unknown>;

export const guideSpec: ResourceSpec = {
  resource: 'guides',
  table: 'guides',
  alias: 'g',
  fields: [
    { name: 'id', type: 'id', sql: 'id', read: (o: O) => o.id, sortable: true },
    { name: 'seller', type: 'id', sql: 'seller_id', read: (o: O) => refId(o.seller) },
    { name: 'user', type: 'id', sql: 'user_id', read: (o: O) => refId(o.user) },
    { name: 'name', type: 'string', sql: 'name', read: (o: O) => o.name, sortable: true },
    { name: 'email', type: 'string', sql: 'email', read: (o: O) => o.email },
    {
      name: 'createdAt',
      type: 'datetime',
      sql: 'created_at',
      read: (o: O) => o.createdAt,
      sortable: true,
    },
  ],
};
