/** Experiences: listing for now (writes arrive with the booking rules). */
import type { Db } from '../../db/database.js';
import { runList } from '../../query/run.js';
import { accessFor } from '../access/access.js';
import { listScopes } from '../access/list-scopes.js';
import type { Caller } from '../users/caller.js';
import { toExperienceView } from './experiences.mapper.js';
import { experienceSpec } from './experiences.query.js';
import { experiencesRepository } from './experiences.repository.js';

export function experiencesService({ db }: { db: Db }) {
  const repo = experiencesRepository(db);
  return {
    list: async (caller: Caller | null, query: Record<string, unknown>) =>
      runList(
        experienceSpec,
        {
          path: '/api/experiences',
          query,
          scope: await listScopes.experiences(caller && accessFor(db, caller)),
        },
        repo.listSource(),
        (rows) => rows.map(toExperienceView),
      ),
  };
}

export type ExperiencesService = ReturnType<typeof experiencesService>;
