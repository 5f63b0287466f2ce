/** HTTP routes of resources: each handler is one service call. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireCaller } from '../../http/auth.js';
import {
  IdParams,
  ListQuery,
  authenticated,
  errorResponses,
  listErrors,
  refTo,
} from '../../http/schemas.js';
import { describeList } from '../../query/describe.js';
import {
  idempotencyErrors,
  idempotentCreate,
  type IdempotencyService,
} from '../idempotency/index.js';
import { resourceList } from './resources.list.js';
import {
  CreateResourceBody,
  Resource,
  ResourceList,
  UpdateResourceBody,
} from './resources.schemas.js';
import type { ResourcesService } from './resources.service.js';

const tags = ['resources'];
const readErrors = errorResponses('authentication_required', 'invalid_credentials', 'not_found');

export const resourcesRoutes: FastifyPluginAsyncTypebox<{
  resources: ResourcesService;
  idempotency: IdempotencyService;
}> = async (app, { resources, idempotency }) => {
  app.post(
    '/resources',
    {
      schema: {
        tags,
        operationId: 'createResource',
        summary: 'Create a resource (a boat, a van) whose seats experiences share',
        description:
          'The seller, its curators and seller-admins (name `seller` when acting for one). Accepts an Idempotency-Key header.',
        security: authenticated,
        body: CreateResourceBody,
        response: {
          201: refTo(Resource),
          ...readErrors,
          ...errorResponses('validation_failed', 'forbidden'),
          ...idempotencyErrors,
        },
      },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      return idempotentCreate(idempotency, request, reply, caller, (record) =>
        resources.create(caller, request.body, record),
      );
    },
  );

  app.get(
    '/resources',
    {
      schema: {
        tags,
        operationId: 'listResources',
        summary: 'List the resources of the sellers the caller works for (all for admins)',
        description: describeList(resourceList),
        security: authenticated,
        querystring: ListQuery,
        response: {
          200: refTo(ResourceList),
          ...listErrors,
          ...errorResponses('authentication_required'),
        },
      },
    },
    async (request) => resources.list(requireCaller(request), request.query),
  );

  app.get(
    '/resources/:id',
    {
      schema: {
        tags,
        operationId: 'getResource',
        summary: 'A resource',
        security: authenticated,
        params: IdParams,
        response: { 200: refTo(Resource), ...readErrors },
      },
    },
    async (request) => resources.get(requireCaller(request), request.params.id),
  );

  app.put(
    '/resources/:id',
    {
      schema: {
        tags,
        operationId: 'updateResource',
        summary: 'Rename a resource or change its capacity',
        description:
          'A capacity below what departures to come hold at some moment is 409 capacity_below_reserved.',
        security: authenticated,
        params: IdParams,
        body: UpdateResourceBody,
        response: {
          200: refTo(Resource),
          ...readErrors,
          ...errorResponses('validation_failed', 'forbidden', 'capacity_below_reserved'),
        },
      },
    },
    async (request) => resources.update(requireCaller(request), request.params.id, request.body),
  );

  app.delete(
    '/resources/:id',
    {
      schema: {
        tags,
        operationId: 'deleteResource',
        summary: 'Delete a resource no experience uses',
        security: authenticated,
        params: IdParams,
        response: {
          204: Type.Null(),
          ...readErrors,
          ...errorResponses('forbidden', 'resource_in_use'),
        },
      },
    },
    async (request, reply) => {
      await resources.remove(requireCaller(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
