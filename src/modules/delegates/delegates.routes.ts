/** HTTP routes of delegates: each handler is one service call. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireCaller } from '../../http/auth.js';
import { ListQuery, authenticated, errorResponses, listErrors, refTo } from '../../http/schemas.js';
import { describeList } from '../../query/describe.js';
import { requestOf, sendOutcome, type IdempotencyService } from '../idempotency/index.js';
import { delegateList } from './delegates.list.js';
import {
  AcceptDelegationBody,
  CreateDelegateBody,
  Delegate,
  DelegateList,
  DelegateParams,
  SellerParams,
} from './delegates.schemas.js';
import type { DelegatesService } from './delegates.service.js';

const tags = ['delegates'];
const DelegateRef = refTo(Delegate);
const errors = errorResponses(
  'authentication_required',
  'invalid_credentials',
  'forbidden',
  'not_found',
);

export const delegatesRoutes: FastifyPluginAsyncTypebox<{
  delegates: DelegatesService;
  idempotency: IdempotencyService;
}> = async (app, { delegates, idempotency }) => {
  app.post(
    '/users/:id/delegates',
    {
      schema: {
        tags,
        operationId: 'createDelegate',
        summary: 'Let a user act for the seller within roles (201; 200 when it replaces the roles)',
        security: authenticated,
        params: SellerParams,
        body: CreateDelegateBody,
        response: {
          200: DelegateRef,
          201: DelegateRef,
          ...errors,
          ...errorResponses('validation_failed', 'rate_limited'),
        },
      },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      const outcome = await idempotency.run(
        {
          scope: caller.id,
          ...requestOf(request),
        },
        async (record) => delegates.add(caller, request.params.id, request.body, record),
      );
      return sendOutcome(reply, outcome);
    },
  );

  app.get(
    '/users/:id/delegates',
    {
      schema: {
        tags,
        operationId: 'listDelegates',
        summary: "The seller's delegates",
        description: describeList(delegateList),
        security: authenticated,
        params: SellerParams,
        querystring: ListQuery,
        response: { 200: refTo(DelegateList), ...errors, ...listErrors },
      },
    },
    async (request) => delegates.list(requireCaller(request), request.params.id, request.query),
  );

  app.get(
    '/users/:id/delegates/:delegateId',
    {
      schema: {
        tags,
        operationId: 'getDelegate',
        summary: 'One delegate (v2018-02-26)',
        security: authenticated,
        params: DelegateParams,
        response: { 200: DelegateRef, ...errors },
      },
    },
    async (request) =>
      delegates.get(requireCaller(request), request.params.id, request.params.delegateId),
  );

  app.post(
    '/users/:id/delegates/:delegateId/accept',
    {
      schema: {
        tags,
        operationId: 'acceptDelegation',
        summary:
          'Accept an invitation with the token its email carries: the signed-in account becomes the delegate, and the seller sees who it is',
        description:
          'A wrong, spent or expired token is the same 404 as an unknown invitation. docs/security.md, "Invitations".',
        security: authenticated,
        params: DelegateParams,
        body: AcceptDelegationBody,
        response: {
          200: DelegateRef,
          ...errors,
          ...errorResponses('validation_failed', 'already_delegate'),
        },
      },
    },
    async (request) =>
      delegates.accept(
        requireCaller(request),
        request.params.id,
        request.params.delegateId,
        request.body.token,
      ),
  );

  app.delete(
    '/users/:id/delegates/:delegateId',
    {
      schema: {
        tags,
        operationId: 'deleteDelegate',
        summary: 'Remove a delegate',
        security: authenticated,
        params: DelegateParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await delegates.remove(requireCaller(request), request.params.id, request.params.delegateId);
      return reply.code(204).send(null);
    },
  );
};
