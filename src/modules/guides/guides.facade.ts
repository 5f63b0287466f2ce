/**
 * What other modules may ask of guides: locking a guide for an assignment, the candidates
 * auto-assignment picks (read unlocked, then locked only when chosen), reading profiles
 * (confirmation emails, version transforms), the guides a ROLE_GUIDE caller is, and the
 * translation between guide ids and the user ids that clients before v2018-02-26 used for
 * guides (a profile is made on demand for a seller's delegate, in the assignment's
 * transaction, as that version's assignment endpoint promised).
 */
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { newId } from '../../db/ids.js';
import { emitChange, type EventSink } from '../../outbox/index.js';
import type { Executor, Tx } from '../../db/unit-of-work.js';
import { delegatesFacade as delegates } from '../delegates/index.js';
import { usersFacade as users } from '../users/index.js';
import { toGuideProfile, toGuideView, type GuideProfile } from './guides.schemas.js';
import { guideCandidatesRepository } from './guide-candidates.repository.js';
import { guidesRepository, type GuideScope } from './guides.repository.js';

/** An event as auto-assignment asks about it: whose it is, and when. */
export interface Departure {
  id: string;
  sellerId: string;
  start: Date;
  end: Date;
}

const rowWindow = ({ id, start, end }: Departure) => ({ id, starts_at: start, ends_at: end });

export const guidesFacade = {
  /** Locks a live guide until the transaction ends: assignments of one guide take turns. */
  lock: async (tx: Tx, id: string): Promise<GuideProfile | undefined> => {
    const row = await guidesRepository(tx).lock(id);
    return row && toGuideProfile(row);
  },

  /**
   * Guides of the seller auto-assignment may consider for `event`, unlocked, in id order
   * (guideCandidatesRepository.freeCandidates: live, with an available schedule, not on an
   * overlapping event they have not declined).
   */
  freeFor: async (
    db: Executor,
    event: Departure,
    options: { after: string; exclude: readonly string[]; limit: number },
  ): Promise<GuideProfile[]> =>
    (
      await guideCandidatesRepository(db).freeCandidates(event.sellerId, rowWindow(event), options)
    ).map(toGuideProfile),

  /**
   * Those of `ids` no other transaction holds, locked, and still free for `event` as read
   * after the lock (in a statement of its own, so it sees what a transaction that held one
   * of them committed); never waits. The schedule rule is the caller's to run again.
   */
  async lockFree(tx: Tx, event: Departure, ids: readonly string[]): Promise<GuideProfile[]> {
    const guides = guideCandidatesRepository(tx);
    const locked = await guides.lockFree(ids);
    if (locked.length === 0) return [];
    const free = await guides.freeCandidates(event.sellerId, rowWindow(event), {
      ids: locked,
      exclude: [],
      limit: locked.length,
    });
    return free.map(toGuideProfile);
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

  /**
   * The guides an older client's user ids may stand for, for `caller`: the live guides of the
   * sellers whose events it sees, and its own guide profiles (those its events list shows
   * it). Nothing for anyone else: a translation never names another tenant's guide.
   */
  async scopeOf(db: Executor, caller: Caller | null | undefined): Promise<GuideScope> {
    if (!caller) return { sellers: [], own: [] };
    const sellers = accessOf(caller).sellersFor('events');
    if (sellers === 'all') return { sellers, own: [] };
    return { sellers, own: await guidesFacade.idsGuidedBy(db, caller) };
  },

  /** User id -> the live guide profiles linked to it, within `scope` (guides filters of old clients). */
  async guidesOfUsers(
    db: Executor,
    userIds: readonly string[],
    scope: GuideScope,
  ): Promise<Map<string, string[]>> {
    const byUser = new Map<string, string[]>(userIds.map((id) => [id, []]));
    for (const row of await guidesRepository(db).linkedToUsers(userIds, scope))
      byUser.get(row.user_id)?.push(row.id);
    return byUser;
  },

  /** Guide id -> linked user id, for the live guides within `scope` that have one. */
  async usersOfGuidesWithin(
    db: Executor,
    guideIds: readonly string[],
    scope: GuideScope,
  ): Promise<Map<string, string>> {
    const rows = await guidesRepository(db).usersLinkedTo(guideIds, scope);
    return new Map(rows.map((r) => [r.id, r.user_id] as const));
  },

  /**
   * Guide id -> linked user id, for the guides that have one (deleted ones too: past events
   * keep them). For events the caller already sees.
   */
  async usersOfGuides(db: Executor, guideIds: readonly string[]): Promise<Map<string, string>> {
    const rows = await guidesRepository(db).findMany(guideIds);
    return new Map(rows.flatMap((r) => (r.user_id ? [[r.id, r.user_id] as const] : [])));
  },
};

export type GuidesFacade = typeof guidesFacade;
