/** HTTP routes of events: each handler is one service call. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireCaller } from '../../http/auth.js';
import {
  ListOf,
  ListQuery,
  authenticated,
  errorResponses,
  listErrors,
} from '../../http/schemas.js';
import { describeList } from '../../query/describe.js';
import { eventSpec } from './events.query.js';
import { Event } from './events.schemas.js';
import type { EventsService } from './events.service.js';

const tags = ['events'];
const EventRef = Type.Unsafe({ $ref: 'Event#' });

export const eventsRoutes: FastifyPluginAsyncTypebox<{ events: EventsService }> = async (
  app,
  { events },
) => {
  app.addSchema(Event);

  app.get(
    '/events',
    {
      schema: {
        tags,
        summary: 'List events of the caller’s experiences (all for admins)',
        description: describeList(eventSpec),
        security: authenticated,
        querystring: ListQuery,
        response: {
          200: ListOf(EventRef),
          ...listErrors,
          ...errorResponses('authentication_required'),
        },
      },
    },
    async (request) => events.list(requireCaller(request), request.query),
  );
};
