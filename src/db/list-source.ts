/**
 * The two queries behind every list: one page of rows, and the count. A repository gives
 * its base select (table, joins, columns); the compiled list query adds the rest.
 */
import { sql, type SelectQueryBuilder } from 'kysely';
import type { CompiledList } from '../query/compile.js';
import type { ListSource } from '../query/run.js';

export function listSource<DB, TB extends keyof DB, Row>(
  base: () => SelectQueryBuilder<DB, TB, object>,
  select: (query: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, Row>,
): ListSource<Row> {
  return {
    rows: (q: CompiledList) =>
      select(base()).where(q.where).orderBy(q.orderBy).limit(q.limit).offset(q.offset).execute(),
    count: async (where) => {
      const row = await base()
        .select(sql<number>`count(*)`.as('n'))
        .where(where)
        .executeTakeFirstOrThrow();
      return Number((row as { n: number | string }).n);
    },
  };
}
