/**
 * v2018-02-26 Guide Profiles. Before it, a guide was the user of a seller's delegate:
 * events list user ids in `guides`, and assignment takes and removes user ids (creating a
 * guide profile for a delegate that has none). The schedule check is skipped for those
 * callers by an explicit gate in the assignment routes.
 */
import { accessFor } from '../modules/access/access.js';
import { eventsRepository } from '../modules/events/events.repository.js';
import type { EventView } from '../modules/events/events.mapper.js';
import { guideOfDelegate, guideOfUser, usersOfGuides } from '../modules/guides/user-guides.js';
import type { ApiVersion, RequestParts, RewriteContext } from './types.js';

/** An event's guides as user ids (guides without a linked user are left out). */
async function withUserIds(events: EventView[], context: RewriteContext): Promise<EventView[]> {
  const users = await usersOfGuides(context.db, [...new Set(events.flatMap((e) => e.guides))]);
  return events.map((e) => ({
    ...e,
    guides: e.guides.flatMap((id) => (users.has(id) ? [users.get(id)!] : [])),
  }));
}

const oneEvent = async (body: unknown, context: RewriteContext) =>
  (await withUserIds([body as EventView], context))[0];

const listOfEvents = async (body: unknown, context: RewriteContext) => {
  const list = body as { data: EventView[] };
  return { ...list, data: await withUserIds(list.data, context) };
};

/**
 * The seller whose guides a request would touch, when the caller manages them: nothing is
 * translated (let alone created) for anyone else; the route then answers 403 or 404.
 */
async function managedSeller(
  context: RewriteContext,
  sellerId: string | undefined,
): Promise<string | undefined> {
  if (!sellerId || !context.caller) return undefined;
  return (await accessFor(context.db, context.caller).can('guides', sellerId))
    ? sellerId
    : undefined;
}

async function sellerOfEvent(
  context: RewriteContext,
  eventId: unknown,
): Promise<string | undefined> {
  if (typeof eventId !== 'string') return undefined;
  return managedSeller(context, (await eventsRepository(context.db).findById(eventId))?.seller_id);
}

/** `{"id": userId}`, `{"id": {"id": userId}}` or `{"guide": {"id": userId}}` -> the guide. */
async function assignmentBody(request: RequestParts, context: RewriteContext): Promise<void> {
  const body = request.body as
    { id?: unknown; guide?: { id?: unknown; forceConfirm?: unknown } } | undefined;
  const raw = body?.guide?.id ?? body?.id;
  const userId = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : raw;
  const sellerId = await sellerOfEvent(context, request.params.id);
  if (typeof userId !== 'string' || !sellerId) return; // let validation and the route answer
  const guideId = await guideOfDelegate(context.db, sellerId, userId);
  const forceConfirm =
    body?.guide?.forceConfirm ?? (body as { forceConfirm?: unknown }).forceConfirm;
  request.body = {
    guide: { id: guideId, ...(forceConfirm === undefined ? {} : { forceConfirm }) },
  };
}

async function unassignmentParams(request: RequestParts, context: RewriteContext): Promise<void> {
  const sellerId = await sellerOfEvent(context, request.params.id);
  const userId = request.params.guideId;
  if (!sellerId || typeof userId !== 'string') return;
  const guideId = await guideOfUser(context.db, sellerId, userId);
  if (guideId) request.params.guideId = guideId;
}

async function eventBody(request: RequestParts, context: RewriteContext): Promise<void> {
  const body = request.body as { experience?: { id?: unknown }; guides?: unknown } | undefined;
  if (!body || !Array.isArray(body.guides) || typeof body.experience?.id !== 'string') return;
  const experience = await context.db
    .selectFrom('experiences')
    .select('seller_id')
    .where('id', '=', body.experience.id)
    .executeTakeFirst();
  const sellerId = await managedSeller(context, experience?.seller_id);
  if (!sellerId) return;
  const guides: unknown[] = [];
  for (const userId of body.guides as unknown[]) {
    guides.push(
      typeof userId === 'string' ? await guideOfDelegate(context.db, sellerId, userId) : userId,
    );
  }
  request.body = { ...body, guides };
}

export const guideProfiles: ApiVersion = {
  date: '2018-02-26',
  title: 'Guide Profiles',
  description: [
    'Guides become profiles of their own (name, email, phone, bio, picture, availability schedules) under `/api/sellers/{id}/guides`, with ids distinct from user ids;',
    'new endpoints `GET /api/users/{id}/delegates/{delegateId}` and `POST`/`PUT /api/experiences/{id}/guide`.',
    'A guide can be assigned to an event only if its schedules allow it.',
    'Changed: `POST /api/events/{id}/guides` and `DELETE /api/events/{id}/guides/{guideId}` take a guide id instead of a user id,',
    'and the `guides` of events (`POST /api/events`, `GET /api/events`, `GET /api/events/{id}`) hold guide ids instead of user ids.',
    'Callers on earlier versions keep user ids (of the seller’s delegates; a profile is created for a delegate that has none), and their assignments skip the schedule check.',
  ].join(' '),
  requests: [
    { method: 'POST', url: '/api/events/:id/guides', rewrite: assignmentBody },
    { method: 'DELETE', url: '/api/events/:id/guides/:guideId', rewrite: unassignmentParams },
    { method: 'POST', url: '/api/events', rewrite: eventBody },
  ],
  responses: [
    { method: 'GET', url: '/api/events', rewrite: listOfEvents },
    { method: 'GET', url: '/api/events/:id', rewrite: oneEvent },
    { method: 'POST', url: '/api/events', rewrite: oneEvent },
    { method: 'POST', url: '/api/events/:id/guides', rewrite: oneEvent },
    { method: 'DELETE', url: '/api/events/:id/guides/:guideId', rewrite: oneEvent },
  ],
};
