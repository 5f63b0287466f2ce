/**
 * What events look like to callers before v2018-06-26 Guide Acknowledgement: `guides` are
 * bare guide ids, without the guides that declined.
 *
 * And before v2018-02-26 Guide Profiles (src/versions/): guides
 * were the users of a seller's delegates. Their events list user ids in `guides`, wherever
 * an event appears (responses, lists, the event inside a guide_conflict error); their
 * assignment requests name user ids (a profile is created for a delegate that has none);
 * and their assignments skip the schedule check.
 */
import { isId } from '../../db/ids.js';
import { accessOf } from '../../domain/access.js';
import { experiencesFacade as experiences } from '../experiences/index.js';
import { guidesFacade as guides } from '../guides/index.js';
import { GUIDE_ACKNOWLEDGEMENT, GUIDE_PROFILES } from '../../versions/index.js';
import type { RequestParts, VersionChanges, VersionContext } from '../../versions/types.js';
import type { ApiObject } from '../../versions/transforms.js';
import { eventsRepository } from './events.repository.js';
import { CreateEventBody } from './events.schemas.js';

/** An id no guide has: a filter on a user without a guide profile matches no event. */
const NO_GUIDE = '0'.repeat(24);

/** Callers from v2018-02-26 on have guides checked against their schedules. */
export const checksGuideSchedules = (apiVersion: string): boolean => apiVersion >= GUIDE_PROFILES;

export function eventVersionChanges(): VersionChanges {
  /**
   * The seller whose guides a request would touch, when the caller manages them: nothing is
   * translated (let alone created) for anyone else; the route then answers 403 or 404.
   */
  const managedSeller = (context: VersionContext, sellerId: string | undefined) =>
    sellerId && context.caller && accessOf(context.caller).can('guides', sellerId)
      ? sellerId
      : undefined;

  const sellerOfEvent = async (context: VersionContext, eventId: unknown) =>
    isId(eventId)
      ? managedSeller(context, (await eventsRepository(context.db).findById(eventId))?.seller_id)
      : undefined;

  /** `{"id": userId}`, `{"id": {"id": userId}}` or `{"guide": {"id": userId}}` -> the guide. */
  async function assignmentBody(request: RequestParts, context: VersionContext): Promise<void> {
    const body = request.body as
      { id?: unknown; guide?: { id?: unknown; forceConfirm?: unknown } } | undefined;
    const raw = body?.guide?.id ?? body?.id;
    const userId = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : raw;
    if (!isId(userId)) return; // let validation answer
    const sellerId = await sellerOfEvent(context, request.params.id);
    if (!sellerId) return; // let the route answer
    const guideId = await guides.guideOfDelegate(context.db, sellerId, userId);
    const forceConfirm =
      body?.guide?.forceConfirm ?? (body as { forceConfirm?: unknown }).forceConfirm;
    request.body = {
      guide: { id: guideId, ...(forceConfirm === undefined ? {} : { forceConfirm }) },
    };
  }

  async function unassignmentParams(request: RequestParts, context: VersionContext) {
    const userId = request.params.guideId;
    if (!isId(userId)) return;
    const sellerId = await sellerOfEvent(context, request.params.id);
    if (!sellerId) return;
    const guideId = await guides.guideOfUser(context.db, sellerId, userId);
    if (guideId) request.params.guideId = guideId;
  }

  async function eventBody(request: RequestParts, context: VersionContext): Promise<void> {
    const body = request.body as { experience?: { id?: unknown }; guides?: unknown } | undefined;
    if (!body || !Array.isArray(body.guides) || !isId(body.experience?.id)) return;
    const entries = body.guides as unknown[];
    // One lookup per guide: no more than the schema allows (validation answers the rest).
    const { maxItems } = CreateEventBody.properties.guides as { maxItems?: number };
    if (entries.length > (maxItems ?? 0)) return;
    const userIds = entries.map((entry) => {
      if (isId(entry)) return entry;
      const object = (entry ?? {}) as { id?: unknown; guide?: { id?: unknown } };
      return object.guide?.id ?? object.id;
    });
    if (!userIds.every(isId)) return; // let validation answer
    const experience = await experiences.find(context.db, body.experience.id);
    const sellerId = managedSeller(context, experience?.sellerId);
    if (!sellerId) return;
    const guideIds: string[] = [];
    for (const userId of userIds) {
      guideIds.push(await guides.guideOfDelegate(context.db, sellerId, userId));
    }
    request.body = { ...body, guides: guideIds };
  }

  /**
   * The `guides` filter of an event list names user ids: each becomes the guide profiles
   * linked to that user (`equals`/`in` match any of them, `notEqual`/`nin` exclude them
   * all). A user with no profile matches nothing (an id no guide has stands for it). The
   * list's own scope still decides what the caller sees.
   *
   * The rewrite reads its own output as it wrote it: `paging.next` carries the rewritten
   * query (`guides[in]=<guide ids>`) and the client follows it on the same version, so a
   * guide id linked to a user (what this writes; ids are unique across tables, so no user
   * has one) stays as it is instead of being looked up again as a user, which matched nothing.
   */
  async function guidesFilter(request: RequestParts, context: VersionContext): Promise<void> {
    const KEY = /^guides(?:\[(equals|in|notEqual|nin)\])?$/;
    for (const [key, value] of Object.entries(request.query)) {
      const match = KEY.exec(key);
      if (!match || typeof value !== 'string') continue;
      const ids = value.split(',').map((v) => v.trim());
      if (!ids.every(isId)) continue; // let the query language answer
      const byUser = await guides.guidesOfUsers(context.db, ids);
      const notUsers = ids.filter((id) => (byUser.get(id) ?? []).length === 0);
      const written =
        notUsers.length > 0 ? await guides.usersOfGuides(context.db, notUsers) : new Map();
      const guideIds = [
        ...new Set(ids.flatMap((id) => (written.has(id) ? [id] : (byUser.get(id) ?? [])))),
      ];
      const negated = match[1] === 'notEqual' || match[1] === 'nin';
      delete request.query[key];
      request.query[`guides[${negated ? 'nin' : 'in'}]`] = (
        guideIds.length > 0 ? guideIds : [NO_GUIDE]
      ).join(',');
    }
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
        method: 'POST',
        url: '/api/events/:id/guides',
        rewrite: assignmentBody,
      },
      {
        version: GUIDE_PROFILES,
        method: 'DELETE',
        url: '/api/events/:id/guides/:guideId',
        rewrite: unassignmentParams,
      },
      { version: GUIDE_PROFILES, method: 'POST', url: '/api/events', rewrite: eventBody },
      { version: GUIDE_PROFILES, method: 'GET', url: '/api/events', rewrite: guidesFilter },
    ],
    objects: [
      { version: GUIDE_ACKNOWLEDGEMENT, object: 'event', down: guidesAsIds },
      { version: GUIDE_PROFILES, object: 'event', down: guidesAsUsers },
      { version: GUIDE_PROFILES, object: 'problem', down: problemGuideAsUser },
    ],
  };
}
