/** HTTP routes of orders: each handler is one service call. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireCaller } from '../../http/auth.js';
import { sendJsonText, takesJsonText } from '../../http/json-text.js';
import { ExpandQuery, listQueryExpanding } from '../../http/expand.js';
import { IdParams, authenticated, errorResponses, listErrors, refTo } from '../../http/schemas.js';
import { describeList } from '../../query/describe.js';
import {
  idempotentCreate,
  idempotentUpdate,
  type IdempotencyService,
  idempotencyErrors,
} from '../idempotency/index.js';
import { orderList } from './orders.list.js';
import {
  CreateOrderBody,
  Order,
  OrderList,
  OrderQuote,
  UpdateOrderBody,
} from './orders.schemas.js';
import type { OrdersService } from './orders.service.js';

const tags = ['orders'];
const OrderRef = refTo(Order);
const readErrors = errorResponses('authentication_required', 'invalid_credentials', 'not_found');
const bookingErrors = errorResponses(
  'validation_failed',
  'forbidden',
  'not_scheduled',
  'departure_started',
  'capacity_exceeded',
  'resource_full',
  'amount_mismatch',
);

export const ordersRoutes: FastifyPluginAsyncTypebox<{
  orders: OrdersService;
  idempotency: IdempotencyService;
}> = async (app, { orders, idempotency }) => {
  app.get(
    '/orders',
    {
      config: { expands: 'order' },
      schema: {
        tags,
        operationId: 'listOrders',
        summary:
          'List orders: those booked by the caller, those of sellers it works for, or all for admins',
        description: describeList(orderList),
        security: authenticated,
        querystring: listQueryExpanding('order'),
        response: {
          200: refTo(OrderList),
          ...listErrors,
          ...errorResponses('authentication_required'),
        },
      },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      return takesJsonText(request)
        ? sendJsonText(reply, await orders.listJson(caller, request.query))
        : orders.list(caller, request.query);
    },
  );

  app.post(
    '/orders',
    {
      config: { checkout: true },
      schema: {
        tags,
        operationId: 'createOrder',
        summary: 'Book: every item or none; 409 when a departure is not scheduled or full',
        description:
          'Customers book for themselves; the seller and its reservation delegates book for customers. Accepts an Idempotency-Key header.',
        security: authenticated,
        body: CreateOrderBody,
        response: { 201: OrderRef, ...readErrors, ...bookingErrors, ...idempotencyErrors },
      },
    },
    async (request, reply) => {
      const checkout = request.checkout;
      if (checkout) {
        return idempotentCreate(idempotency, request, reply, null, (record) =>
          orders.bookAtCheckout(checkout, request.body, record),
        );
      }
      const caller = requireCaller(request);
      return idempotentCreate(idempotency, request, reply, caller, (record) =>
        orders.book(caller, request.body, record),
      );
    },
  );

  app.post(
    '/orders/prepare',
    {
      config: { checkout: true },
      schema: {
        tags,
        operationId: 'quoteOrder',
        summary: 'Quote: the order as it would be booked now, without booking it',
        description:
          'Takes the body of POST /api/orders and answers its items, prices and amount, or the 409 booking would give. Takes no seats and writes nothing.',
        security: authenticated,
        body: CreateOrderBody,
        response: { 200: refTo(OrderQuote), ...readErrors, ...bookingErrors },
      },
    },
    async (request) =>
      request.checkout
        ? orders.quoteAtCheckout(request.checkout, request.body)
        : orders.quote(requireCaller(request), request.body),
  );

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/orders/:id',
      schema: {
        tags,
        operationId: method === 'PUT' ? 'replaceOrder' : 'updateOrder',
        summary:
          'Change an order: customer details, notes, and its items (moved, resized, added, dropped)',
        description:
          'PUT (Xola) and PATCH do the same: fields left out stay; `items`, when given, lists every item the order keeps (by id) or adds (no id). All or nothing; the amount is recomputed and its difference recorded as an adjustment. Accepts an Idempotency-Key header.',
        security: authenticated,
        params: IdParams,
        body: UpdateOrderBody,
        response: {
          200: OrderRef,
          ...readErrors,
          ...bookingErrors,
          ...idempotencyErrors,
          ...errorResponses('already_canceled', 'item_canceled'),
        },
      },
      handler: async (request, reply) => {
        const caller = requireCaller(request);
        return idempotentUpdate(idempotency, request, reply, caller, (record) =>
          orders.change(caller, request.params.id, request.body, record),
        );
      },
    });
  }

  app.get(
    '/orders/:id',
    {
      config: { expands: 'order' },
      schema: {
        tags,
        operationId: 'getOrder',
        summary: 'An order',
        security: authenticated,
        params: IdParams,
        querystring: ExpandQuery('order'),
        response: { 200: OrderRef, ...readErrors },
      },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      return takesJsonText(request)
        ? sendJsonText(reply, await orders.getJson(caller, request.params.id))
        : orders.get(caller, request.params.id);
    },
  );

  app.post(
    '/orders/:id/cancel',
    {
      schema: {
        tags,
        operationId: 'cancelOrder',
        summary:
          'Cancel an order and give its seats back (the customer, the seller or its reservation staff)',
        security: authenticated,
        params: IdParams,
        response: {
          200: OrderRef,
          ...readErrors,
          ...errorResponses('already_canceled', 'departure_started'),
        },
      },
    },
    async (request) => orders.cancel(requireCaller(request), request.params.id),
  );
};
