/** HTTP routes that put guides on events and take them off: each one service call. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireCaller } from '../../http/auth.js';
import { Id, authenticated, errorResponses, refTo } from '../../http/schemas.js';
import type { AssignmentService } from './assignment.service.js';
import { Event } from './events.schemas.js';
import { guideWritesOf } from './events.versions.js';

const tags = ['events', 'guides'];
const EventRef = refTo(Event);
const errors = errorResponses(
  'authentication_required',
  'invalid_credentials',
  'forbidden',
  'not_found',
);

const AssignmentBody = Type.Object(
  {
    guide: Type.Optional(
      Type.Object(
        { id: Id, forceConfirm: Type.Optional(Type.Boolean()) },
        { additionalProperties: false },
      ),
    ),
    id: Type.Optional(Type.Union([Id, Type.Object({ id: Id }, { additionalProperties: false })])),
    forceConfirm: Type.Optional(Type.Boolean()),
  },
  {
    additionalProperties: false,
    description:
      '{"guide": {"id", "forceConfirm"?}}; {"id": "..."} and {"id": {"id": "..."}} are accepted too',
  },
);

export const assignmentRoutes: FastifyPluginAsyncTypebox<{
  assignments: AssignmentService;
}> = async (app, { assignments }) => {
  app.post(
    '/events/:id/guides',
    {
      schema: {
        tags,
        operationId: 'assignGuide',
        summary: 'Assign a guide to an event (201 with the event; assigning twice changes nothing)',
        description:
          'The guide must be available by its schedules for the whole event (409 guide_unavailable, never overridden) ' +
          'and free of overlapping events (409 guide_conflict unless forceConfirm).',
        security: authenticated,
        params: Type.Object({ id: Id }),
        body: AssignmentBody,
        response: {
          201: EventRef,
          ...errors,
          ...errorResponses('validation_failed', 'guide_unavailable', 'guide_conflict'),
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await assignments.assign(
            requireCaller(request),
            request.params.id,
            request.body,
            guideWritesOf(request.apiVersion),
          ),
        ),
  );

  app.put(
    '/events/:id/guides/:guideId',
    {
      schema: {
        tags,
        operationId: 'acknowledgeGuide',
        summary:
          "A guide's answer to its assignment: confirmed, declined, or pending again (v2018-06-26; 200 with the event)",
        description:
          'By the guide itself (the user its profile is linked to) or the seller’s guide managers. ' +
          'Taking back a declined assignment passes the assignment checks again (409 guide_unavailable, guide_conflict).',
        security: authenticated,
        params: Type.Object({ id: Id, guideId: Id }),
        body: Type.Object(
          { status: Type.Enum(['pending', 'confirmed', 'declined']) },
          { additionalProperties: false },
        ),
        response: {
          200: EventRef,
          ...errors,
          ...errorResponses('validation_failed', 'guide_unavailable', 'guide_conflict'),
        },
      },
    },
    async (request) =>
      assignments.acknowledge(
        requireCaller(request),
        request.params.id,
        request.params.guideId,
        request.body.status,
      ),
  );

  app.delete(
    '/events/:id/guides/:guideId',
    {
      schema: {
        tags,
        operationId: 'unassignGuide',
        summary: 'Take a guide off an event (200 with the event)',
        security: authenticated,
        params: Type.Object({ id: Id, guideId: Id }),
        response: { 200: EventRef, ...errors },
      },
    },
    async (request) =>
      assignments.unassign(requireCaller(request), request.params.id, request.params.guideId),
  );
};
