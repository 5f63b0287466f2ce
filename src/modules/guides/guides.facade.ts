/**
 * What other modules may ask of guides: locking a guide for an assignment, reading profiles
 * (confirmation emails, version transforms), the guides a ROLE_GUIDE caller is, and the
 * translation between guide ids and the user ids that clients before v2018-02-26 used for
 * guides (a profile is made on demand for a seller's delegate, in the assignment's
 * transaction, as that version's assignment endpoint promised).
 */
import type { Caller } from '../../domain/caller.js';
import { newId } from '../../db/ids.js';
import { emitChange, type EventSink } from '../../outbox/index.js';
import type { Executor, Tx } from '../../db/unit-of-work.js';
import { delegatesFacade as delegates } from '../delegates/index.js';
import { usersFacade as users } from '../users/index.js';
import { toGuideProfile, toGuideView, type GuideProfile } from './guides.schemas.js';
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

  /**
   * Before v2018-02-26 a guide was named by its delegate's user id. An id that is a delegate
   * of the seller becomes that delegate's guide profile, made (without schedules) if it has
   * none, in the caller's transaction and announced there as `guide.create`, as a profile
   * made through `/api/sellers/{id}/guides` is; any other id comes back as it is, for the
   * assignment to find or refuse.
   */
  async delegateAsGuide(
    tx: Tx,
    domainEvents: EventSink,
    actorId: string,
    sellerId: string,
    id: string,
  ): Promise<string> {
    const guides = guidesRepository(tx);
    const existing = await guides.findByUser(sellerId, id);
    if (existing) return existing.id;
    const user = (await delegates.isKnownDelegate(tx, sellerId, id)) && (await users.find(tx, id));
    if (!user) return id;
    const created = await guides.insertUnlessLinked({
      id: newId(),
      seller_id: sellerId,
      user_id: id,
      name: user.name,
      email: user.email,
      schedules: '[]',
    });
    // Two first assignments of the same delegate at once: the other's profile is the one.
    if (!created) return (await guides.findByUser(sellerId, id))!.id;
    await emitChange(domainEvents, tx, {
      name: 'guide.create',
      sellerId,
      actorId,
      after: toGuideView(created),
    });
    return created.id;
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
