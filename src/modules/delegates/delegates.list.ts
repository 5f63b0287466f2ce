/** The filterable and sortable fields of a seller's delegates (the query language). */
import { sql } from 'kysely';
import { defineListSpec } from '../../query/list-spec.js';
import { Delegate } from './delegates.schemas.js';

export const delegateList = defineListSpec(Delegate, {
  resource: 'delegates',
  table: 'delegates',
  alias: 'd',
  fields: {
    id: { sql: 'id', sortable: true },
    seller: 'seller_id',
    // The user as the seller is shown it (delegates.schemas.ts, isDisclosed): an invitation
    // not accepted filters as having none.
    user: {
      sql: (alias) =>
        sql`(case when ${sql.ref(`${alias}.email`)} is null or ${sql.ref(`${alias}.accepted_at`)} is not null then ${sql.ref(`${alias}.user_id`)} end)`,
    },
    createdAt: { sql: 'created_at', sortable: true },
  },
});
