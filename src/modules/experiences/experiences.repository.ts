/** All SQL on experiences. */
import type { Kysely, RawBuilder, SqlBool } from 'kysely';
import type { DB } from '../../db/types.js';
import type { CompiledList } from '../../query/compile.js';
import type { ListSource } from '../../query/run.js';
import type { ExperienceRow } from './experiences.mapper.js';

export function experiencesRepository(db: Kysely<DB>) {
  return {
    listSource(): ListSource<ExperienceRow> {
      return {
        rows: (q: CompiledList) =>
          db
            .selectFrom('experiences as x')
            .selectAll('x')
            .where(q.where)
            .orderBy(q.orderBy)
            .limit(q.limit)
            .offset(q.offset)
            .execute(),
        count: async (where: RawBuilder<SqlBool>) => {
          const row = await db
            .selectFrom('experiences as x')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where(where)
            .executeTakeFirstOrThrow();
          return Number(row.n);
        },
      };
    },
  };
}
