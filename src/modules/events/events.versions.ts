/**
 * What events look like to callers before v2018-06-26 Guide Acknowledgement: `guides` are
 * bare guide ids, without the guides that declined.
 *
 * And before v2018-02-26 Guide Profiles (src/versions/): guides
 * were the users of a seller's delegates. Their events list user ids in `guides`, wherever
 * an event appears (responses, lists, the event inside a guide_conflict error); their
 * writes name user ids (read by the writes themselves, which make a profile for a delegate
 * that has none: GuideWrites); and their assignments skip the schedule check.
 */
import { isId } from '../../db/ids.js';
import { accessOf } from '../../domain/access.js';
import { QueryError } from '../../query/errors.js';
import { clip } from '../../query/values.js';
import { guidesFacade as guides, type GuideScope } from '../guides/index.js';
import { GUIDE_ACKNOWLEDGEMENT, GUIDE_PROFILES } from '../../versions/index.js';
import type { RequestParts, VersionChanges, VersionContext } from '../../versions/types.js';
import type { ApiObject } from '../../versions/transforms.js';
import { eventsRepository } from './events.repository.js';

/** An id no guide has: a filter on a user without a guide profile matches no event. */
const NO_GUIDE = '0'.repeat(24);

/** What writing an event's guides does differently on the caller's version. */
export interface GuideWrites {
  /** From v2018-02-26 on, guides are checked against their schedules. */
  checkSchedule: boolean;
  /**
   * Before v2018-02-26, `POST /api/events/{id}/guides` and `POST /api/events` name guides by
   * their delegates' user ids: the write reads each as that delegate's profile, made in the
   * write's transaction (announced as `guide.create`) for a delegate that has none, so a
   * write that fails leaves none behind (guidesFacade.delegateAsGuide). Not a request rewrite: the
   * body stays as sent, so an Idempotency-Key replay compares what the client sent.
   */
  delegatesAsGuides: boolean;
  /**
   * The event's guides this version does not show, which `POST /api/events` keeps whatever
   * its `guides` say (they are not the caller's to remove): declined guides before
   * v2018-06-26, and guides without a linked user too before v2018-02-26.
   */
  hides: { declined: boolean; unlinked: boolean };
}

export const guideWritesOf = (apiVersion: string): GuideWrites => ({
  checkSchedule: apiVersion >= GUIDE_PROFILES,
  delegatesAsGuides: apiVersion < GUIDE_PROFILES,
  hides: { declined: apiVersion < GUIDE_ACKNOWLEDGEMENT, unlinked: apiVersion < GUIDE_PROFILES },
});

/** The latest version's: guide ids only, every guide shown, schedules checked. */
export const LATEST_GUIDE_WRITES: GuideWrites = guideWritesOf('9999-12-31');

export function eventVersionChanges(): VersionChanges {
  /**
   * The seller whose guides a request would touch, when the caller manages them: nothing is
   * translated for anyone else; the route then answers 403 or 404.
   */
  const managedSeller = (context: VersionContext, sellerId: string | undefined) =>
    sellerId && context.caller && accessOf(context.caller).can('guides', sellerId)
      ? sellerId
      : undefined;

  const sellerOfEvent = async (context: VersionContext, eventId: unknown) =>
    isId(eventId)
      ? managedSeller(context, (await eventsRepository(context.db).findById(eventId))?.seller_id)
      : undefined;

  async function unassignmentParams(request: RequestParts, context: VersionContext) {
    const userId = request.params.guideId;
    if (!isId(userId)) return;
    const sellerId = await sellerOfEvent(context, request.params.id);
    if (!sellerId) return;
    const guideId = await guides.guideOfUser(context.db, sellerId, userId);
    if (guideId) request.params.guideId = guideId;
  }

  const GUIDES_KEY = /^guides(?:\[(equals|in|notEqual|nin)\])?$/;

  /**
   * One parameter of an events query: a `guides` filter of user ids as guide ids, else as
   * sent. Only guides `scope` holds are translated, both ways (guides.scopeOf): the ids
   * written go back to the client in `paging.next`, so they must be ids it may know.
   */
  async function guidesParameter(
    key: string,
    value: unknown,
    context: VersionContext,
    scope: () => Promise<GuideScope>,
  ) {
    const match = GUIDES_KEY.exec(key);
    if (!match || typeof value !== 'string') return { key, value };
    const ids = value.split(',').map((v) => v.trim());
    if (!ids.every(isId)) return { key, value }; // let the query language answer
    const byUser = await guides.guidesOfUsers(context.db, ids, await scope());
    const notUsers = ids.filter((id) => (byUser.get(id) ?? []).length === 0);
    const written =
      notUsers.length > 0
        ? await guides.usersOfGuidesWithin(context.db, notUsers, await scope())
        : new Map();
    const guideIds = [
      ...new Set(ids.flatMap((id) => (written.has(id) ? [id] : (byUser.get(id) ?? [])))),
    ];
    const negated = match[1] === 'notEqual' || match[1] === 'nin';
    return {
      key: `guides[${negated ? 'nin' : 'in'}]`,
      value: (guideIds.length > 0 ? guideIds : [NO_GUIDE]).join(','),
    };
  }

  /**
   * The `guides` filter of an event list names user ids: each becomes the live guide
   * profiles linked to that user at the sellers whose events the caller sees, or its own
   * (`equals`/`in` match any of them, `notEqual`/`nin` exclude them all). A user with no such
   * profile matches nothing (an id no guide has stands for it), whatever it is elsewhere.
   * The list's own scope still decides what the caller sees.
   *
   * The rewrite reads its own output as it wrote it: `paging.next` carries the rewritten
   * query (`guides[in]=<guide ids>`) and the client follows it on the same version, so a
   * guide id linked to a user (what this writes; ids are unique across tables, so no user
   * has one) stays as it is instead of being looked up again as a user, which matched nothing.
   */
  async function guidesFilter(request: RequestParts, context: VersionContext): Promise<void> {
    const query: Record<string, unknown> = {};
    const sentAs = new Map<string, string>();
    let scoped: Promise<GuideScope> | undefined;
    const scope = () => (scoped ??= guides.scopeOf(context.db, context.caller));
    for (const [key, value] of Object.entries(request.query)) {
      const name = await guidesParameter(key, value, context, scope);
      // Two filters that become one parameter (`guides` and `guides[in]`) are that parameter
      // given twice, as the current language answers; one is never dropped for the other.
      const first = sentAs.get(name.key);
      if (first !== undefined) {
        throw new QueryError(
          'repeated_parameter',
          clip(key),
          `${clip(first)} and ${clip(key)} both mean ${name.key} on this version (before ${GUIDE_PROFILES}); give one of them.`,
        );
      }
      sentAs.set(name.key, key);
      query[name.key] = name.value;
    }
    request.query = query;
  }

  /**
   * The transforms below rewrite only the shape they know (the latest event's, or the one
   * the newer transform left) and pass anything else through: an event whose guides are not
   * that shape is left as it is, never a thrown error that turns a read into a 500.
   */
  type AssignedGuide = { status: string; guide: { id: string } };
  const isAssignedGuide = (g: unknown): g is AssignedGuide =>
    typeof g === 'object' &&
    g !== null &&
    typeof (g as AssignedGuide).status === 'string' &&
    isId((g as AssignedGuide).guide?.id);
  const guideIdsOf = (e: ApiObject): string[] | undefined =>
    Array.isArray(e.guides) && e.guides.every(isId) ? e.guides : undefined;

  /** Before v2018-06-26: an event's guides as bare ids, without those who declined. */
  const guidesAsIds = (events: ApiObject[]) =>
    events.map((e) =>
      Array.isArray(e.guides) && e.guides.every(isAssignedGuide)
        ? {
            ...e,
            guides: e.guides.filter((g) => g.status !== 'declined').map((g) => g.guide.id),
          }
        : e,
    );

  /** An event's guides as user ids (guides without a linked user are left out). */
  async function guidesAsUsers(events: ApiObject[], context: VersionContext) {
    const ids = [...new Set(events.flatMap((e) => guideIdsOf(e) ?? []))];
    if (ids.length === 0) return events;
    const users = await guides.usersOfGuides(context.db, ids);
    return events.map((e) => {
      const guideIds = guideIdsOf(e);
      if (!guideIds) return e;
      return { ...e, guides: guideIds.flatMap((id) => (users.has(id) ? [users.get(id)!] : [])) };
    });
  }

  /** The guide an assignment error names is its user for these callers. */
  async function problemGuideAsUser(problems: ApiObject[], context: VersionContext) {
    const named = problems.filter((p) => isId((p.guide as { id?: unknown } | undefined)?.id));
    const users = await guides.usersOfGuides(
      context.db,
      named.map((p) => (p.guide as { id: string }).id),
    );
    return problems.map((p) => {
      const id = (p.guide as { id?: string } | undefined)?.id;
      return id !== undefined && users.has(id) ? { ...p, guide: { id: users.get(id)! } } : p;
    });
  }

  return {
    requests: [
      {
        version: GUIDE_PROFILES,
        method: 'DELETE',
        url: '/api/events/:id/guides/:guideId',
        rewrite: unassignmentParams,
      },
      { version: GUIDE_PROFILES, method: 'GET', url: '/api/events', rewrite: guidesFilter },
    ],
    objects: [
      { version: GUIDE_ACKNOWLEDGEMENT, object: 'event', down: guidesAsIds },
      { version: GUIDE_PROFILES, object: 'event', down: guidesAsUsers },
      { version: GUIDE_PROFILES, object: 'problem', down: problemGuideAsUser },
    ],
  };
}
