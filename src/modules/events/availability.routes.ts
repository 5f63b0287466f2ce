/** The HTTP route of an experience's availability: one service call. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, errorResponses, refTo } from '../../http/schemas.js';
import type { AvailabilityService } from './availability.service.js';
import {
  Availability,
  AvailabilityQuery,
  ManyAvailability,
  ManyAvailabilityQuery,
} from './events.schemas.js';

export const availabilityRoutes: FastifyPluginAsyncTypebox<{
  availability: AvailabilityService;
}> = async (app, { availability }) => {
  app.get(
    '/experiences/:id/availability',
    {
      config: { checkout: true },
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

  app.get(
    '/availability',
    {
      schema: {
        tags: ['experiences'],
        operationId: 'getManyAvailability',
        summary:
          'Open seats per departure of several experiences at once (at most 50, at most 62 days)',
        description:
          'Keyed by experience id; experiences the caller may not see are left out. Three queries whatever the number of experiences; more than 100,000 departures (scheduled or opened by hand) is 400.',
        querystring: ManyAvailabilityQuery,
        response: {
          200: refTo(ManyAvailability),
          ...errorResponses('validation_failed', 'invalid_credentials'),
        },
      },
    },
    async (request) =>
      availability.ofMany(
        request.caller,
        request.query.experience,
        request.query.start,
        request.query.end,
      ),
  );
};
