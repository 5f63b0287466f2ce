/**
 * HTTP routes of affiliates (`/api/users/{id}/affiliates`, Xola's path): a seller's reseller
 * credentials for OCTo. Each handler is one service call.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireCaller } from '../../http/auth.js';
import {
  Id,
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
import { affiliateList } from './resellers.list.js';
import {
  AffiliateList,
  CreateAffiliateBody,
  CreatedAffiliate,
  type AffiliateView,
} from './resellers.schemas.js';
import type { ResellersService } from './resellers.service.js';

const tags = ['affiliates'];
const errors = errorResponses(
  'authentication_required',
  'invalid_credentials',
  'forbidden',
  'not_found',
);

export const resellersRoutes: FastifyPluginAsyncTypebox<{
  resellers: ResellersService;
  idempotency: IdempotencyService;
}> = async (app, { resellers, idempotency }) => {
  app.post(
    '/users/:id/affiliates',
    {
      schema: {
        tags,
        operationId: 'createAffiliate',
        summary:
          'Issue a reseller credential for OCTo (the seller or its seller-admins); its apiKey is shown in this answer only; accepts an Idempotency-Key',
        security: authenticated,
        params: IdParams,
        body: CreateAffiliateBody,
        response: {
          201: refTo(CreatedAffiliate),
          ...errors,
          ...errorResponses('validation_failed'),
          ...idempotencyErrors,
        },
      },
    },
    // A retried create (same Idempotency-Key and body within 24 h) answers with the same
    // credential; its secret is never stored in the replay, but opened from its sealed copy.
    async (request, reply) => {
      const caller = requireCaller(request);
      return idempotentCreate(
        idempotency,
        request,
        reply,
        caller,
        (record) => resellers.create(caller, request.params.id, request.body, record),
        {
          stored: (body) => {
            const { apiKey: _key, ...affiliate } = body as { apiKey?: string };
            return affiliate;
          },
          replayed: async (affiliate) => resellers.withApiKey(affiliate as AffiliateView),
        },
      );
    },
  );

  app.get(
    '/users/:id/affiliates',
    {
      schema: {
        tags,
        operationId: 'listAffiliates',
        summary:
          'The seller’s reseller credentials (OCTo), revoked ones included; never their secrets',
        description: describeList(affiliateList),
        security: authenticated,
        params: IdParams,
        querystring: ListQuery,
        response: { 200: refTo(AffiliateList), ...listErrors },
      },
    },
    async (request) => resellers.list(requireCaller(request), request.params.id, request.query),
  );

  app.delete(
    '/users/:id/affiliates/:affiliateId',
    {
      schema: {
        tags,
        operationId: 'revokeAffiliate',
        summary:
          'Revoke a reseller credential: refused on every instance once this answers; its webhooks end',
        security: authenticated,
        params: Type.Object({ id: Id, affiliateId: Id }),
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await resellers.revoke(requireCaller(request), request.params.id, request.params.affiliateId);
      return reply.code(204).send(null);
    },
  );
};
