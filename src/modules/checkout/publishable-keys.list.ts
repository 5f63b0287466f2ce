/** The filterable and sortable fields of a seller's publishable keys (the query language). */
import { defineListSpec } from '../../query/list-spec.js';
import { PublishableKey } from './publishable-keys.schemas.js';

export const publishableKeyList = defineListSpec(PublishableKey, {
  resource: 'publishable keys',
  table: 'publishable_keys',
  alias: 'k',
  fields: {
    id: { sql: 'id', sortable: true },
    seller: 'seller_id',
    createdAt: { sql: 'created_at', sortable: true },
    revokedAt: { sql: 'revoked_at', sortable: true },
  },
});
