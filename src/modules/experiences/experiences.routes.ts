/** HTTP routes of experiences: each handler is one service call. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireCaller } from '../../http/auth.js';
import {
  IdParams,
  ListOf,
  ListQuery,
  authenticated,
  errorResponses,
  listErrors,
} from '../../http/schemas.js';
import { describeList } from '../../query/describe.js';
import { experienceSpec } from './experiences.query.js';
import {
  Availability,
  AvailabilityQuery,
  CreateExperienceBody,
  CreateGuidePreferencesBody,
  UpdateGuidePreferencesBody,
  UpdateExperienceBody,
} from './experiences.schemas.js';
import type { ExperiencesService } from './experiences.service.js';

const tags = ['experiences'];
const ExperienceRef = Type.Unsafe({ $ref: 'Experience#' });
const writeErrors = errorResponses(
  'validation_failed',
  'authentication_required',
  'invalid_credentials',
  'forbidden',
  'not_found',
);

export const experiencesRoutes: FastifyPluginAsyncTypebox<{
  experiences: ExperiencesService;
}> = async (app, { experiences }) => {
  app.get(
    '/experiences',
    {
      schema: {
        tags,
        summary: 'List experiences: visible ones for everyone, plus those the caller manages',
        description: describeList(experienceSpec),
        querystring: ListQuery,
        response: { 200: ListOf(ExperienceRef), ...listErrors },
      },
    },
    async (request) => experiences.list(request.caller, request.query),
  );

  app.post(
    '/experiences',
    {
      schema: {
        tags,
        summary: 'Create an experience (the seller, its curators or seller-admins)',
        security: authenticated,
        body: CreateExperienceBody,
        response: { 201: ExperienceRef, ...writeErrors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await experiences.create(requireCaller(request), request.body)),
  );

  app.get(
    '/experiences/:id',
    {
      schema: {
        tags,
        summary: 'An experience (public when visible)',
        params: IdParams,
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
        summary: 'Change the given fields of an experience',
        security: authenticated,
        params: IdParams,
        body: UpdateExperienceBody,
        response: { 200: ExperienceRef, ...writeErrors },
      },
    },
    async (request) => experiences.update(requireCaller(request), request.params.id, request.body),
  );

  app.delete(
    '/experiences/:id',
    {
      schema: {
        tags,
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

  app.post(
    '/experiences/:id/guide',
    {
      schema: {
        tags,
        summary:
          'Create the guide preferences of an experience (v2018-02-26); returns the experience',
        security: authenticated,
        params: IdParams,
        body: CreateGuidePreferencesBody,
        response: {
          201: ExperienceRef,
          ...writeErrors,
          ...errorResponses('guide_preferences_exist'),
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await experiences.createGuide(requireCaller(request), request.params.id, request.body),
        ),
  );

  app.put(
    '/experiences/:id/guide',
    {
      schema: {
        tags,
        summary: 'Change the guide preferences of an experience (404 when it has none)',
        security: authenticated,
        params: IdParams,
        body: UpdateGuidePreferencesBody,
        response: { 200: ExperienceRef, ...writeErrors },
      },
    },
    async (request) =>
      experiences.updateGuide(requireCaller(request), request.params.id, request.body),
  );

  app.get(
    '/experiences/:id/availability',
    {
      schema: {
        tags,
        summary: 'Open seats per departure, per local date (at most 62 days)',
        params: IdParams,
        querystring: AvailabilityQuery,
        response: {
          200: Availability,
          ...errorResponses('validation_failed', 'invalid_credentials', 'not_found'),
        },
      },
    },
    async (request) =>
      experiences.availability(
        request.caller,
        request.params.id,
        request.query.start,
        request.query.end,
      ),
  );
};
