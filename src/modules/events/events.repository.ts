/** All SQL on events. */
import type { Kysely, RawBuilder, SqlBool } from 'kysely';
import type { DB } from '../../db/types.js';
import type { CompiledList } from '../../query/compile.js';
import type { ListSource } from '../../query/run.js';
import type { EventRow } from './events.mapper.js';

export function eventsRepository(db: Kysely<DB>) {
  /** Events with the name and time zone of their experience, which their view shows. */
  const withExperience = () =>
    db
      .selectFrom('events as e')
      .innerJoin('experiences as x', 'x.id', 'e.experience_id')
      .selectAll('e')
      .select(['x.name as title', 'x.timezone as timezone']);

  return {
    withExperience,
    listSource(): ListSource<EventRow> {
      return {
        rows: (q: CompiledList) =>
          withExperience()
            .where(q.where)
            .orderBy(q.orderBy)
            .limit(q.limit)
            .offset(q.offset)
            .execute(),
        count: async (where: RawBuilder<SqlBool>) => {
          const row = await db
            .selectFrom('events as e')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where(where)
            .executeTakeFirstOrThrow();
          return Number(row.n);
        },
      };
    },
  };
}
