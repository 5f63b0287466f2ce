/** All SQL on guest types: the `demographics` view over the experiences' jsonb. */
import type { Kysely } from 'kysely';
import { listSource } from '../../db/list-source.js';
import type { DB } from '../../db/types.js';
import type { ListSource } from '../../query/run.js';
import type { DemographicRow } from './demographics.schemas.js';

export function demographicsRepository(db: Kysely<DB>) {
  return {
    listSource(): ListSource<DemographicRow> {
      return listSource(
        () => db.selectFrom('demographics as d'),
        (q) => q.selectAll('d'),
      );
    },
  };
}
