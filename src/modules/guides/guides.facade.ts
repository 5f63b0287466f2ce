/**
 * What other modules may ask of guides: locking a guide for an assignment, reading profiles
 * (confirmation emails, version transforms), the guides a ROLE_GUIDE caller is, and the
 * translation between guide ids and the user ids that clients before v2018-02-26 used for
 * guides (a profile is created on demand for a seller's delegate, as that version's
 * assignment endpoint promised).
 */
import type { Caller } from '../../domain/caller.js';
import { notFound } from '../../domain/errors.js';
import { isUniqueViolation } from '../../db/errors.js';
import { newId } from '../../db/ids.js';
import type { Executor, Tx } from '../../db/unit-of-work.js';
import { delegatesFacade as delegates } from '../delegates/index.js';
import { usersFacade as users } from '../users/index.js';
import { toGuideProfile, type GuideProfile } from './guides.schemas.js';
import { guidesRepository } from './guides.repository.js';

export const guidesFacade = {
  /** Locks a live guide until the transaction ends: assignments of one guide take turns. */
  lock: async (tx: Tx, id: string): Promise<GuideProfile | undefined> => {
    const row = await guidesRepository(tx).lock(id);
    return row && toGuideProfile(row);
  },

  /** The seller's next free guide after `afterId`, locked (auto-assignment; never waits). */
  lockNextFree: async (tx: Tx, sellerId: string, afterId: string) => {
    const row = await guidesRepository(tx).lockNextFree(sellerId, afterId);
    return row && toGuideProfile(row);
  },

  /** Profiles by id, deleted ones included (past events keep their guides). */
  findMany: async (db: Executor, ids: readonly string[]): Promise<GuideProfile[]> =>
    (await guidesRepository(db).findMany(ids)).map(toGuideProfile),

  /** The guide profiles of a caller that is a ROLE_GUIDE delegate: it sees their events. */
  async idsGuidedBy(db: Executor, caller: Caller): Promise<string[]> {
    const sellers = [...caller.delegations]
      .filter(([, roles]) => roles.includes('ROLE_GUIDE'))
      .map(([sellerId]) => sellerId);
    if (sellers.length === 0) return [];
    return guidesRepository(db).idsLinkedTo(caller.id, sellers);
  },

  /** The guide profile of a delegate user at a seller, created (without schedules) if missing. */
  async guideOfDelegate(db: Executor, sellerId: string, userId: string): Promise<string> {
    const guides = guidesRepository(db);
    const existing = await guides.findByUser(sellerId, userId);
    if (existing) return existing.id;
    const user =
      (await delegates.isKnownDelegate(db, sellerId, userId)) && (await users.find(db, userId));
    if (!user) throw notFound(`A delegate with user id ${userId} at this seller`);
    try {
      const created = await guides.insert({
        id: newId(),
        seller_id: sellerId,
        user_id: userId,
        name: user.name,
        email: user.email,
        schedules: '[]',
      });
      return created.id;
    } catch (error) {
      // Two first assignments of the same delegate at once: one profile wins, use it.
      if (isUniqueViolation(error, 'guides_seller_user'))
        return (await guides.findByUser(sellerId, userId))!.id;
      throw error;
    }
  },

  /** The guide id of a user at a seller, if it has a profile (no creation). */
  guideOfUser: async (db: Executor, sellerId: string, userId: string) =>
    (await guidesRepository(db).findByUser(sellerId, userId))?.id,

  /** User id -> the guide profiles linked to it (at any seller). */
  async guidesOfUsers(db: Executor, userIds: readonly string[]): Promise<Map<string, string[]>> {
    const byUser = new Map<string, string[]>(userIds.map((id) => [id, []]));
    for (const row of await guidesRepository(db).linkedToUsers(userIds))
      byUser.get(row.user_id)?.push(row.id);
    return byUser;
  },

  /** Guide id -> linked user id, for the guides that have one. */
  async usersOfGuides(db: Executor, guideIds: readonly string[]): Promise<Map<string, string>> {
    const rows = await guidesRepository(db).findMany(guideIds);
    return new Map(rows.flatMap((r) => (r.user_id ? [[r.id, r.user_id] as const] : [])));
  },
};

export type GuidesFacade = typeof guidesFacade;
