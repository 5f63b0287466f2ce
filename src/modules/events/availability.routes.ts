/** The HTTP route of an experience's availability: one service call. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, errorResponses, refTo } from '../../http/schemas.js';
import type { AvailabilityService } from './availability.service.js';
import { Availability, AvailabilityQuery } from './events.schemas.js';

export const availabilityRoutes: FastifyPluginAsyncTypebox<{
  availability: AvailabilityService;
}> = async (app, { availability }) => {
  app.get(
    '/experiences/:id/availability',
    {
      schema: {
        tags: ['experiences'],
        operationId: 'getAvailability',
        summary: 'Open seats per departure, per local date (at most 62 days)',
        params: IdParams,
        querystring: AvailabilityQuery,
        response: {
          200: refTo(Availability),
          ...errorResponses('validation_failed', 'invalid_credentials', 'not_found'),
        },
      },
    },
    async (request) =>
      availability.of(request.caller, request.params.id, request.query.start, request.query.end),
  );
};
