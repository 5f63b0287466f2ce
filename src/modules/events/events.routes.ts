/** HTTP routes of events: each handler is one service call. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireCaller } from '../../http/auth.js';
import { sendJsonText, takesJsonText } from '../../http/json-text.js';
import { ExpandQuery, listQueryExpanding } from '../../http/expand.js';
import { IdParams, authenticated, errorResponses, listErrors, refTo } from '../../http/schemas.js';
import { describeList } from '../../query/describe.js';
import { idempotentCreate, type IdempotencyService } from '../idempotency/index.js';
import { eventList } from './events.list.js';
import { CreateEventBody, Event, EventList, UpdateEventBody } from './events.schemas.js';
import { guideWritesOf } from './events.versions.js';
import type { EventsService } from './events.service.js';

const tags = ['events'];
const EventRef = refTo(Event);
const readErrors = errorResponses('authentication_required', 'invalid_credentials', 'not_found');

export const eventsRoutes: FastifyPluginAsyncTypebox<{
  events: EventsService;
  idempotency: IdempotencyService;
}> = async (app, { events, idempotency }) => {
  app.get(
    '/events',
    {
      config: { expands: 'event' },
      schema: {
        tags,
        operationId: 'listEvents',
        summary: 'List events of the sellers the caller works for (all for admins)',
        description: describeList(eventList),
        security: authenticated,
        querystring: listQueryExpanding('event'),
        response: {
          200: refTo(EventList),
          ...listErrors,
          ...errorResponses('authentication_required'),
        },
      },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      const json =
        takesJsonText(request) &&
        (await events.listJson(caller, request.query, (error) =>
          request.log.warn({ err: error }, 'events: local times not stored; a later read retries'),
        ));
      return json ? sendJsonText(reply, json) : events.list(caller, request.query);
    },
  );

  app.post(
    '/events',
    {
      schema: {
        tags,
        operationId: 'upsertEvent',
        summary:
          'Create an event, or update the one of the same experience and start (201 both ways)',
        description: 'Accepts an Idempotency-Key header.',
        security: authenticated,
        body: CreateEventBody,
        response: {
          201: EventRef,
          ...readErrors,
          ...errorResponses(
            'validation_failed',
            'forbidden',
            'capacity_below_reserved',
            'resource_full',
            'guide_unavailable',
            'guide_conflict',
            'invalid_idempotency_key',
            'idempotency_key_reused',
            'idempotency_in_progress',
          ),
        },
      },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      const writes = guideWritesOf(request.apiVersion);
      return idempotentCreate(idempotency, request, reply, caller, (record) =>
        events.upsert(caller, request.body, record, writes),
      );
    },
  );

  app.get(
    '/events/:id',
    {
      config: { expands: 'event' },
      schema: {
        tags,
        operationId: 'getEvent',
        summary: 'An event',
        security: authenticated,
        params: IdParams,
        querystring: ExpandQuery('event'),
        response: { 200: EventRef, ...readErrors },
      },
    },
    async (request) => events.get(requireCaller(request), request.params.id),
  );

  app.patch(
    '/events/:id',
    {
      schema: {
        tags,
        operationId: 'updateEvent',
        summary: "Change an event's capacity (the seller's event staff)",
        security: authenticated,
        params: IdParams,
        body: UpdateEventBody,
        response: {
          200: EventRef,
          ...readErrors,
          ...errorResponses('validation_failed', 'forbidden', 'capacity_below_reserved'),
        },
      },
    },
    async (request) => events.change(requireCaller(request), request.params.id, request.body),
  );

  app.delete(
    '/events/:id',
    {
      schema: {
        tags,
        operationId: 'deleteEvent',
        summary: 'Delete an event that no order booked (409 otherwise)',
        security: authenticated,
        params: IdParams,
        response: {
          204: Type.Null(),
          ...readErrors,
          ...errorResponses('forbidden', 'event_has_bookings'),
        },
      },
    },
    async (request, reply) => {
      await events.remove(requireCaller(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
