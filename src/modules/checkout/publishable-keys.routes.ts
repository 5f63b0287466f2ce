/** HTTP routes of publishable keys: each handler is one service call. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireCaller } from '../../http/auth.js';
import {
  Id,
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
import { publishableKeyList } from './publishable-keys.list.js';
import {
  CreatePublishableKeyBody,
  PublishableKey,
  PublishableKeyList,
} from './publishable-keys.schemas.js';
import type { PublishableKeysService } from './publishable-keys.service.js';

const tags = ['checkout'];
const SellerParams = Type.Object({ id: Id });
const errors = errorResponses(
  'authentication_required',
  'invalid_credentials',
  'forbidden',
  'not_found',
);

export const publishableKeysRoutes: FastifyPluginAsyncTypebox<{
  keys: PublishableKeysService;
  idempotency: IdempotencyService;
}> = async (app, { keys, idempotency }) => {
  app.post(
    '/sellers/:id/publishable-keys',
    {
      schema: {
        tags,
        operationId: 'createPublishableKey',
        summary:
          'Make a publishable key for the checkout button on the seller’s web pages (the seller or its seller-admins); accepts an Idempotency-Key',
        security: authenticated,
        params: SellerParams,
        body: CreatePublishableKeyBody,
        response: {
          201: refTo(PublishableKey),
          ...errors,
          ...errorResponses('validation_failed'),
          ...idempotencyErrors,
        },
      },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      return idempotentCreate(idempotency, request, reply, caller, (record) =>
        keys.create(caller, request.params.id, request.body, record),
      );
    },
  );

  app.get(
    '/sellers/:id/publishable-keys',
    {
      schema: {
        tags,
        operationId: 'listPublishableKeys',
        summary: 'The seller’s publishable keys, revoked ones included',
        description: describeList(publishableKeyList),
        security: authenticated,
        params: SellerParams,
        querystring: ListQuery,
        response: { 200: refTo(PublishableKeyList), ...listErrors },
      },
    },
    async (request) => keys.list(requireCaller(request), request.params.id, request.query),
  );

  app.delete(
    '/sellers/:id/publishable-keys/:keyId',
    {
      schema: {
        tags,
        operationId: 'revokePublishableKey',
        summary: 'Revoke a publishable key: refused from now on, everywhere',
        security: authenticated,
        params: Type.Object({ id: Id, keyId: Id }),
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await keys.revoke(requireCaller(request), request.params.id, request.params.keyId);
      return reply.code(204).send(null);
    },
  );
};
