/** Experiences: listing for now (writes arrive with the booking rules). */
import type { Db } from '../../db/database.js';
import { runList } from '../../query/run.js';
import { scopes } from '../access/scopes.js';
import type { Caller } from '../users/caller.js';
import { toExperienceView } from './experiences.mapper.js';
import { experienceSpec } from './experiences.query.js';
import { experiencesRepository } from './experiences.repository.js';

export function experiencesService({ db }: { db: Db }) {
  const repo = experiencesRepository(db);
  return {
    list: (caller: Caller | null, query: Record<string, unknown>) =>
      runList(
        experienceSpec,
        { path: '/api/experiences', query, scope: scopes.experiences(caller) },
        repo.listSource(),
        (rows) => rows.map(toExperienceView),
      ),
  };
}

export type ExperiencesService = ReturnType<typeof experiencesService>;
