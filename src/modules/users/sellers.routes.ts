/** HTTP routes of sellers: each handler is one service call. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
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
import { sellerList } from './sellers.list.js';
import { Seller, SellerList } from './sellers.schemas.js';
import type { SellersService } from './sellers.service.js';

const tags = ['sellers'];

export const sellersRoutes: FastifyPluginAsyncTypebox<{ sellers: SellersService }> = async (
  app,
  { sellers },
) => {
  app.get(
    '/sellers',
    {
      schema: {
        tags,
        operationId: 'listSellers',
        summary: 'The sellers the caller may act for, with its roles at each (admins: all)',
        description: describeList(sellerList),
        security: authenticated,
        querystring: ListQuery,
        response: {
          200: refTo(SellerList),
          ...listErrors,
          ...errorResponses('authentication_required'),
        },
      },
    },
    async (request) => sellers.list(requireCaller(request), request.query),
  );

  app.get(
    '/sellers/:id',
    {
      schema: {
        tags,
        operationId: 'getSeller',
        summary: "A seller's public profile (its email to its staff)",
        params: IdParams,
        response: {
          200: refTo(Seller),
          ...errorResponses('invalid_credentials', 'not_found'),
        },
      },
    },
    async (request) => sellers.get(request.caller, request.params.id),
  );
};
