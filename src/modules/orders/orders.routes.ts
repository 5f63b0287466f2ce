/** HTTP routes of orders: each handler is one service call. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireCaller } from '../../http/auth.js';
import {
  ListOf,
  ListQuery,
  authenticated,
  errorResponses,
  listErrors,
} from '../../http/schemas.js';
import { describeList } from '../../query/describe.js';
import { orderSpec } from './orders.query.js';
import { Order } from './orders.schemas.js';
import type { OrdersService } from './orders.service.js';

const tags = ['orders'];
const OrderRef = Type.Unsafe({ $ref: 'Order#' });

export const ordersRoutes: FastifyPluginAsyncTypebox<{ orders: OrdersService }> = async (
  app,
  { orders },
) => {
  app.addSchema(Order);

  app.get(
    '/orders',
    {
      schema: {
        tags,
        summary: 'List orders: the seller’s, the customer’s own, or all for admins',
        description: describeList(orderSpec),
        security: authenticated,
        querystring: ListQuery,
        response: {
          200: ListOf(OrderRef),
          ...listErrors,
          ...errorResponses('authentication_required'),
        },
      },
    },
    async (request) => orders.list(requireCaller(request), request.query),
  );
};
