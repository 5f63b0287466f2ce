/** HTTP routes of hooks (`/api/users/{id}/hooks`, Xola's shape): each handler is one service call. */
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
import { deliveryList, hookList } from './hooks.list.js';
import {
  CreateHookBody,
  CreatedHook,
  DeliveryParams,
  Hook,
  HookList,
  HookParams,
  HookSecret,
  WebhookDelivery,
  WebhookDeliveryList,
} from './hooks.schemas.js';
import type { HooksService } from './hooks.service.js';

const tags = ['hooks'];
const HookRef = refTo(Hook);
const errors = errorResponses(
  'authentication_required',
  'invalid_credentials',
  'forbidden',
  'not_found',
);

export const hooksRoutes: FastifyPluginAsyncTypebox<{ hooks: HooksService }> = async (
  app,
  { hooks },
) => {
  app.post(
    '/users/:id/hooks',
    {
      schema: {
        tags,
        operationId: 'createHook',
        summary: 'Subscribe a URL to an event (or `*`); the answer carries the signing secret',
        description:
          'A second hook for the same eventName and URL is 409 hook_exists (so retrying a create is safe). Payloads are rendered in `apiVersion`, by default the version of this request.',
        security: authenticated,
        params: IdParams,
        body: CreateHookBody,
        response: {
          201: refTo(CreatedHook),
          ...errors,
          ...errorResponses('validation_failed', 'hook_exists', 'too_many_hooks'),
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await hooks.create(
            requireCaller(request),
            request.params.id,
            request.body,
            request.apiVersion,
          ),
        ),
  );

  app.get(
    '/users/:id/hooks',
    {
      schema: {
        tags,
        operationId: 'listHooks',
        summary: "The user's hooks",
        description: describeList(hookList),
        security: authenticated,
        params: IdParams,
        querystring: ListQuery,
        response: { 200: refTo(HookList), ...errors, ...listErrors },
      },
    },
    async (request) => hooks.list(requireCaller(request), request.params.id, request.query),
  );

  app.get(
    '/users/:id/hooks/:hookId',
    {
      schema: {
        tags,
        operationId: 'getHook',
        summary: 'One hook',
        security: authenticated,
        params: HookParams,
        response: { 200: HookRef, ...errors },
      },
    },
    async (request) => hooks.get(requireCaller(request), request.params.id, request.params.hookId),
  );

  app.delete(
    '/users/:id/hooks/:hookId',
    {
      schema: {
        tags,
        operationId: 'deleteHook',
        summary: 'Remove a hook (its pending deliveries go with it)',
        security: authenticated,
        params: HookParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await hooks.remove(requireCaller(request), request.params.id, request.params.hookId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/users/:id/hooks/:hookId/secret',
    {
      schema: {
        tags,
        operationId: 'getHookSecret',
        summary: "The hook's signing secret",
        security: authenticated,
        params: HookParams,
        response: { 200: refTo(HookSecret), ...errors },
      },
    },
    async (request) =>
      hooks.secret(requireCaller(request), request.params.id, request.params.hookId),
  );

  app.post(
    '/users/:id/hooks/:hookId/secret',
    {
      schema: {
        tags,
        operationId: 'rotateHookSecret',
        summary: 'A new signing secret; deliveries are signed with it from now on',
        security: authenticated,
        params: HookParams,
        response: { 200: refTo(HookSecret), ...errors },
      },
    },
    async (request) =>
      hooks.rotateSecret(requireCaller(request), request.params.id, request.params.hookId),
  );

  app.post(
    '/users/:id/hooks/:hookId/enable',
    {
      schema: {
        tags,
        operationId: 'enableHook',
        summary: 'Enable a hook disabled after failing deliveries',
        security: authenticated,
        params: HookParams,
        response: { 200: HookRef, ...errors },
      },
    },
    async (request) =>
      hooks.enable(requireCaller(request), request.params.id, request.params.hookId),
  );

  app.get(
    '/users/:id/hooks/:hookId/deliveries',
    {
      schema: {
        tags,
        operationId: 'listHookDeliveries',
        summary: "The hook's deliveries, each with its attempts",
        description: describeList(deliveryList),
        security: authenticated,
        params: HookParams,
        querystring: ListQuery,
        response: { 200: refTo(WebhookDeliveryList), ...errors, ...listErrors },
      },
    },
    async (request) =>
      hooks.deliveries(
        requireCaller(request),
        request.params.id,
        request.params.hookId,
        request.query,
      ),
  );

  app.post(
    '/users/:id/hooks/:hookId/deliveries/:deliveryId/resend',
    {
      schema: {
        tags,
        operationId: 'resendHookDelivery',
        summary: 'Send a delivery again, with a fresh retry schedule',
        security: authenticated,
        params: DeliveryParams,
        response: { 202: refTo(WebhookDelivery), ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(
          await hooks.resend(
            requireCaller(request),
            request.params.id,
            request.params.hookId,
            request.params.deliveryId,
          ),
        ),
  );
};
