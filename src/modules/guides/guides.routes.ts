/** HTTP routes of guides and their schedules: each handler is one service call. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireCaller } from '../../http/auth.js';
import { ExpandQuery, listQueryExpanding } from '../../http/expand.js';
import { authenticated, errorResponses, listErrors, refTo } from '../../http/schemas.js';
import { describeList } from '../../query/describe.js';
import { idempotentCreate, type IdempotencyService } from '../idempotency/index.js';
import { guideList } from './guides.list.js';
import {
  CreateGuideBody,
  Guide,
  GuideList,
  GuideParams,
  GuideSchedule,
  GuideScheduleBody,
  GuideScheduleParams,
  SellerParams,
  UpdateGuideBody,
} from './guides.schemas.js';
import type { GuidesService } from './guides.service.js';

const tags = ['guides'];
const GuideRef = refTo(Guide);
const errors = errorResponses(
  'authentication_required',
  'invalid_credentials',
  'forbidden',
  'not_found',
);
const writeErrors = { ...errors, ...errorResponses('validation_failed') };

export const guidesRoutes: FastifyPluginAsyncTypebox<{
  guides: GuidesService;
  idempotency: IdempotencyService;
}> = async (app, { guides, idempotency }) => {
  const security = authenticated;

  app.get(
    '/sellers/:id/guides',
    {
      config: { expands: 'guide' },
      schema: {
        tags,
        operationId: 'listGuides',
        summary: "The seller's guides (v2018-02-26)",
        description: describeList(guideList),
        security,
        params: SellerParams,
        querystring: listQueryExpanding('guide'),
        response: { 200: refTo(GuideList), ...listErrors, ...errors },
      },
    },
    async (request) => guides.list(requireCaller(request), request.params.id, request.query),
  );

  app.post(
    '/sellers/:id/guides',
    {
      schema: {
        tags,
        operationId: 'createGuide',
        summary: 'Create a guide profile',
        security,
        params: SellerParams,
        body: CreateGuideBody,
        response: { 201: GuideRef, ...writeErrors },
      },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      return idempotentCreate(idempotency, request, reply, caller, (record) =>
        guides.create(caller, request.params.id, request.body, record),
      );
    },
  );

  app.get(
    '/sellers/:id/guides/:guideId',
    {
      config: { expands: 'guide' },
      schema: {
        tags,
        operationId: 'getGuide',
        summary: 'A guide, with its schedules',
        security,
        params: GuideParams,
        querystring: ExpandQuery('guide'),
        response: { 200: GuideRef, ...errors },
      },
    },
    async (request) =>
      guides.get(requireCaller(request), request.params.id, request.params.guideId),
  );

  app.put(
    '/sellers/:id/guides/:guideId',
    {
      schema: {
        tags,
        operationId: 'updateGuide',
        summary: 'Change the given fields of a guide',
        security,
        params: GuideParams,
        body: UpdateGuideBody,
        response: { 200: GuideRef, ...writeErrors },
      },
    },
    async (request) =>
      guides.update(
        requireCaller(request),
        request.params.id,
        request.params.guideId,
        request.body,
      ),
  );

  app.delete(
    '/sellers/:id/guides/:guideId',
    {
      schema: {
        tags,
        operationId: 'deleteGuide',
        summary: 'Delete a guide; it leaves every future event',
        security,
        params: GuideParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await guides.remove(requireCaller(request), request.params.id, request.params.guideId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/sellers/:id/guides/:guideId/schedules',
    {
      schema: {
        tags,
        operationId: 'createGuideSchedule',
        summary: 'Add an availability schedule; answers with the new schedule (Xola)',
        security,
        params: GuideParams,
        body: GuideScheduleBody,
        response: {
          201: refTo(GuideSchedule),
          ...writeErrors,
          ...errorResponses('too_many_schedules'),
        },
      },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      const { id, guideId } = request.params;
      return idempotentCreate(idempotency, request, reply, caller, (record) =>
        guides.addSchedule(caller, id, guideId, request.body, record),
      );
    },
  );

  app.put(
    '/sellers/:id/guides/:guideId/schedules/:scheduleId',
    {
      schema: {
        tags,
        operationId: 'updateGuideSchedule',
        summary: 'Replace an availability schedule; returns the guide',
        security,
        params: GuideScheduleParams,
        body: GuideScheduleBody,
        response: { 200: GuideRef, ...writeErrors },
      },
    },
    async (request) =>
      guides.updateSchedule(
        requireCaller(request),
        request.params.id,
        request.params.guideId,
        request.params.scheduleId,
        request.body,
      ),
  );

  app.delete(
    '/sellers/:id/guides/:guideId/schedules/:scheduleId',
    {
      schema: {
        tags,
        operationId: 'deleteGuideSchedule',
        summary: 'Remove an availability schedule; returns the guide',
        security,
        params: GuideScheduleParams,
        response: { 200: GuideRef, ...errors },
      },
    },
    async (request) =>
      guides.removeSchedule(
        requireCaller(request),
        request.params.id,
        request.params.guideId,
        request.params.scheduleId,
      ),
  );
};
