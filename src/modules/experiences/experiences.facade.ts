/**
 * What other modules may ask of experiences: the rows bookings and events are made from,
 * and whether a caller may see one. Each call takes the executor it runs on.
 */
import type { Caller } from '../../domain/caller.js';
import type { Executor } from '../../db/unit-of-work.js';
import { guidePreferencesOf, schedulesOf, type ExperienceRow } from './experiences.schemas.js';
import { experiencesRepository } from './experiences.repository.js';
import { canView, mayView } from './experiences.service.js';

export const experiencesFacade = {
  find: (db: Executor, id: string): Promise<ExperienceRow | undefined> =>
    experiencesRepository(db).findById(id),

  findMany: (db: Executor, ids: readonly string[]): Promise<ExperienceRow[]> =>
    experiencesRepository(db).findMany(ids),

  /** The experience if the caller may see it (visible, or its seller's staff); else 404. */
  findVisible: async (db: Executor, caller: Caller | null, id: string): Promise<ExperienceRow> =>
    mayView(caller, await experiencesRepository(db).findById(id), id),

  /** Of these, the experiences the caller may see (visible, or its seller's staff). */
  visibleTo: (caller: Caller | null, rows: readonly ExperienceRow[]): ExperienceRow[] =>
    rows.filter((row) => canView(caller, row)),

  schedulesOf,
  guidePreferencesOf,
};

export type ExperiencesFacade = typeof experiencesFacade;
