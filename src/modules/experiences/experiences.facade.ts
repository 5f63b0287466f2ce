/**
 * What other modules may ask of experiences: the experiences bookings, events and emails are
 * made from (as `BookableExperience`, never the row), and whether a caller may see one.
 * Each call takes the executor it runs on.
 */
import type { Caller } from '../../domain/caller.js';
import type { Executor } from '../../db/unit-of-work.js';
import { toBookable, type BookableExperience } from './experiences.schemas.js';
import { experiencesRepository } from './experiences.repository.js';
import { canView, mayView } from './experiences.service.js';

export const experiencesFacade = {
  find: async (db: Executor, id: string): Promise<BookableExperience | undefined> => {
    const row = await experiencesRepository(db).findById(id);
    return row && toBookable(row);
  },

  findMany: async (db: Executor, ids: readonly string[]): Promise<BookableExperience[]> =>
    (await experiencesRepository(db).findMany(ids)).map(toBookable),

  /** A seller's visible experiences (what a reseller may sell: OCTo's products). */
  visibleOfSeller: async (db: Executor, sellerId: string): Promise<BookableExperience[]> =>
    (await experiencesRepository(db).visibleOfSeller(sellerId)).map(toBookable),

  /** Whether an experience lists the resource (resources are not deleted while one does). */
  usesResource: (db: Executor, resourceId: string): Promise<boolean> =>
    experiencesRepository(db).usesResource(resourceId),

  /** The experience if the caller may see it (visible, or its seller's staff); else 404. */
  findVisible: async (db: Executor, caller: Caller | null, id: string) =>
    toBookable(mayView(caller, await experiencesRepository(db).findById(id), id)),

  /** Of these, the experiences the caller may see (visible, or its seller's staff). */
  visibleTo: (caller: Caller | null, experiences: readonly BookableExperience[]) =>
    experiences.filter((e) => canView(caller, { visible: e.visible, seller_id: e.sellerId })),
};

export type ExperiencesFacade = typeof experiencesFacade;
