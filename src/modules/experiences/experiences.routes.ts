/** HTTP routes of experiences: each handler is one service call. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireCaller } from '../../http/auth.js';
import { ExpandQuery, listQueryExpanding } from '../../http/expand.js';
import {
  IdParams,
  ListQuery,
  authenticated,
  errorResponses,
  listErrors,
  refTo,
} from '../../http/schemas.js';
import { describeList } from '../../query/describe.js';
import { Schedule } from '../shared/index.js';
import { idempotentCreate, type IdempotencyService } from '../idempotency/index.js';
import { experienceList } from './experiences.list.js';
import { demographicList } from './demographics.list.js';
import { DemographicList } from './demographics.schemas.js';
import {
  CreateExperienceBody,
  Experience,
  ExperienceList,
  UpdateExperienceBody,
} from './experiences.schemas.js';
import type { ExperiencesService } from './experiences.service.js';

export const tags = ['experiences'];
export const ExperienceRef = refTo(Experience);
export const ScheduleRef = refTo(Schedule);
export const writeErrors = errorResponses(
  'validation_failed',
  'authentication_required',
  'invalid_credentials',
  'forbidden',
  'not_found',
);

export const experiencesRoutes: FastifyPluginAsyncTypebox<{
  experiences: ExperiencesService;
  idempotency: IdempotencyService;
}> = async (app, { experiences, idempotency }) => {
  app.get(
    '/demographics',
    {
      schema: {
        tags,
        operationId: 'listDemographics',
        summary:
          'List guest types (adult, child ...) of experiences: filter by seller or experience',
        description: describeList(demographicList),
        querystring: ListQuery,
        response: { 200: refTo(DemographicList), ...listErrors },
      },
    },
    async (request) => experiences.demographics(request.caller, request.query),
  );

  app.get(
    '/experiences',
    {
      config: { checkout: true, expands: 'experience' },
      schema: {
        tags,
        operationId: 'listExperiences',
        summary: 'List experiences: visible ones for everyone, plus those the caller manages',
        description: describeList(experienceList),
        querystring: listQueryExpanding('experience'),
        response: { 200: refTo(ExperienceList), ...listErrors },
      },
    },
    async (request) => experiences.list(request.caller, request.query),
  );

  app.post(
    '/experiences',
    {
      schema: {
        tags,
        operationId: 'createExperience',
        summary: 'Create an experience (the seller, its curators or seller-admins)',
        security: authenticated,
        body: CreateExperienceBody,
        response: { 201: ExperienceRef, ...writeErrors },
      },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      return idempotentCreate(idempotency, request, reply, caller, (record) =>
        experiences.create(caller, request.body, record),
      );
    },
  );

  app.get(
    '/experiences/:id',
    {
      config: { checkout: true, expands: 'experience' },
      schema: {
        tags,
        operationId: 'getExperience',
        summary: 'An experience (public when visible)',
        params: IdParams,
        querystring: ExpandQuery('experience'),
        response: { 200: ExperienceRef, ...errorResponses('invalid_credentials', 'not_found') },
      },
    },
    async (request) => experiences.get(request.caller, request.params.id),
  );

  app.put(
    '/experiences/:id',
    {
      schema: {
        tags,
        operationId: 'updateExperience',
        summary: 'Change the given fields of an experience',
        description:
          'Its time zone stays while departures to come hold seats (409 experience_has_bookings). Resources added or re-weighted count what its departures to come hold at once (409 resource_full when one cannot carry them).',
        security: authenticated,
        params: IdParams,
        body: UpdateExperienceBody,
        response: {
          200: ExperienceRef,
          ...writeErrors,
          ...errorResponses('experience_has_bookings', 'resource_full'),
        },
      },
    },
    async (request) => experiences.update(requireCaller(request), request.params.id, request.body),
  );

  app.delete(
    '/experiences/:id',
    {
      schema: {
        tags,
        operationId: 'deleteExperience',
        summary: 'Delete an experience that was never booked (hide a booked one instead)',
        security: authenticated,
        params: IdParams,
        response: {
          204: Type.Null(),
          ...writeErrors,
          ...errorResponses('experience_has_bookings'),
        },
      },
    },
    async (request, reply) => {
      await experiences.remove(requireCaller(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
