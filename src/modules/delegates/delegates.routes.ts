/** HTTP routes of delegates: each handler is one service call. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireCaller } from '../../http/auth.js';
import { ListOf, authenticated, errorResponses } from '../../http/schemas.js';
import { CreateDelegateBody, DelegateParams, SellerParams } from './delegates.schemas.js';
import type { DelegatesService } from './delegates.service.js';

const tags = ['delegates'];
const DelegateRef = Type.Unsafe({ $ref: 'Delegate#' });
const errors = errorResponses(
  'authentication_required',
  'invalid_credentials',
  'forbidden',
  'not_found',
);

export const delegatesRoutes: FastifyPluginAsyncTypebox<{ delegates: DelegatesService }> = async (
  app,
  { delegates },
) => {
  app.post(
    '/users/:id/delegates',
    {
      schema: {
        tags,
        summary: 'Let a user act for the seller within roles (201; 200 when it replaces the roles)',
        security: authenticated,
        params: SellerParams,
        body: CreateDelegateBody,
        response: {
          200: DelegateRef,
          201: DelegateRef,
          ...errors,
          ...errorResponses('validation_failed'),
        },
      },
    },
    async (request, reply) => {
      const { created, delegate } = await delegates.add(
        requireCaller(request),
        request.params.id,
        request.body,
      );
      return reply.code(created ? 201 : 200).send(delegate);
    },
  );

  app.get(
    '/users/:id/delegates',
    {
      schema: {
        tags,
        summary: "The seller's delegates",
        security: authenticated,
        params: SellerParams,
        response: { 200: ListOf(DelegateRef), ...errors },
      },
    },
    async (request) => delegates.list(requireCaller(request), request.params.id),
  );

  app.get(
    '/users/:id/delegates/:delegateId',
    {
      schema: {
        tags,
        summary: 'One delegate (v2018-02-26)',
        security: authenticated,
        params: DelegateParams,
        response: { 200: DelegateRef, ...errors },
      },
    },
    async (request) =>
      delegates.get(requireCaller(request), request.params.id, request.params.delegateId),
  );

  app.delete(
    '/users/:id/delegates/:delegateId',
    {
      schema: {
        tags,
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
