/**
 * HTTP routes of an experience's parts: its guide preferences and its schedules as a
 * sub-resource with stable ids. Each handler is one service call.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireCaller } from '../../http/auth.js';
import { IdParams, authenticated, errorResponses } from '../../http/schemas.js';
import { idempotentCreate, type IdempotencyService } from '../idempotency/index.js';
import {
  CreateGuidePreferencesBody,
  ExperienceScheduleBody,
  ScheduleParams,
  UpdateGuidePreferencesBody,
} from './experiences.schemas.js';
import type { ExperiencesService } from './experiences.service.js';
import { ExperienceRef, ScheduleRef, tags, writeErrors } from './experiences.routes.js';

export const experiencePartsRoutes: FastifyPluginAsyncTypebox<{
  experiences: ExperiencesService;
  idempotency: IdempotencyService;
}> = async (app, { experiences, idempotency }) => {
  app.post(
    '/experiences/:id/guide',
    {
      schema: {
        tags,
        operationId: 'createGuidePreferences',
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
        operationId: 'updateGuidePreferences',
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
    '/experiences/:id/schedules/:scheduleId',
    {
      schema: {
        tags,
        operationId: 'getExperienceSchedule',
        summary: 'One schedule of an experience (public when the experience is visible)',
        params: ScheduleParams,
        response: { 200: ScheduleRef, ...errorResponses('invalid_credentials', 'not_found') },
      },
    },
    async (request) =>
      experiences.schedule(request.caller, request.params.id, request.params.scheduleId),
  );

  app.post(
    '/experiences/:id/schedules',
    {
      schema: {
        tags,
        operationId: 'createExperienceSchedule',
        summary: 'Add a schedule to an experience; answers with the new schedule and its id',
        description: 'Accepts an Idempotency-Key header.',
        security: authenticated,
        params: IdParams,
        body: ExperienceScheduleBody,
        response: {
          201: ScheduleRef,
          ...writeErrors,
          // One 409 entry for both codes (spreading two would keep only the last).
          ...errorResponses(
            'too_many_schedules',
            'invalid_idempotency_key',
            'idempotency_key_reused',
            'idempotency_in_progress',
          ),
        },
      },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      return idempotentCreate(idempotency, request, reply, caller, (record) =>
        experiences.addSchedule(caller, request.params.id, request.body, record),
      );
    },
  );

  app.put(
    '/experiences/:id/schedules/:scheduleId',
    {
      schema: {
        tags,
        operationId: 'replaceExperienceSchedule',
        summary: 'Replace a schedule of an experience (same id; booked orders are kept)',
        security: authenticated,
        params: ScheduleParams,
        body: ExperienceScheduleBody,
        response: { 200: ScheduleRef, ...writeErrors },
      },
    },
    async (request) =>
      experiences.replaceSchedule(
        requireCaller(request),
        request.params.id,
        request.params.scheduleId,
        request.body,
      ),
  );

  app.delete(
    '/experiences/:id/schedules/:scheduleId',
    {
      schema: {
        tags,
        operationId: 'deleteExperienceSchedule',
        summary: 'Remove a schedule of an experience (booked orders are kept)',
        security: authenticated,
        params: ScheduleParams,
        response: { 204: Type.Null(), ...writeErrors },
      },
    },
    async (request, reply) => {
      await experiences.removeSchedule(
        requireCaller(request),
        request.params.id,
        request.params.scheduleId,
      );
      return reply.code(204).send(null);
    },
  );
};
