/** The filterable and sortable fields of a seller's affiliates (the query language). */
import { defineListSpec } from '../../query/list-spec.js';
import { Affiliate } from './resellers.schemas.js';

export const affiliateList = defineListSpec(Affiliate, {
  resource: 'affiliates',
  table: 'reseller_credentials',
  alias: 'r',
  fields: {
    id: { sql: 'id', sortable: true },
    seller: 'seller_id',
    name: { sql: 'name', sortable: true },
    createdAt: { sql: 'created_at', sortable: true },
    revokedAt: { sql: 'revoked_at', sortable: true },
  },
});
