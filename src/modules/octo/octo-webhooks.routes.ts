/**
 * OCTo's webhook routes (octo/webhooks, tag `OCTo`): a reseller's receivers for
 * booking_update and availability_update. The answer to a creation carries the signing
 * secret (Standard Webhooks, as the API's hooks), and so does the answer that enables a
 * disabled one again; each handler is one service call.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { Nullable, refTo } from '../../http/schemas.js';
import { RESELLER_EVENTS } from '../hooks/index.js';
import { octoSchema } from './octo.routes.js';
import { resellerOf } from './octo-scope.js';
import type { OctoWebhooksService } from './octo-webhooks.js';

const webhookFields = {
  id: Type.String(),
  event: Type.Enum(RESELLER_EVENTS),
  url: Type.String({ format: 'uri' }),
  useContactLanguage: Type.Boolean({ description: 'Content has one language here: false' }),
  // Not in OCTo's Webhook (which has no state): without it a reseller could not tell that
  // its receiver stopped getting anything. Clients ignore fields they do not know.
  status: Type.Union([Type.Literal('ENABLED'), Type.Literal('DISABLED')], {
    description:
      'Not an OCTo field: DISABLED after its deliveries kept failing for the whole retry schedule (nothing is sent to it); POST the same url and event again to enable it',
  }),
};

export const OctoWebhook = Type.Object(webhookFields, { $id: 'OctoWebhook' });
export const OctoWebhooks = Type.Array(refTo(OctoWebhook), { $id: 'OctoWebhooks' });
export const OctoCreatedWebhook = Type.Object(
  {
    ...webhookFields,
    secret: Type.String({
      description:
        'Standard Webhooks signing secret (whsec_...): verify webhook-signature with it; shown this once',
    }),
  },
  { $id: 'OctoCreatedWebhook' },
);
export const OctoWebhookBody = Type.Object(
  {
    url: Type.String({ format: 'uri', maxLength: 2000, description: 'https, public' }),
    event: Type.Enum(RESELLER_EVENTS),
    useContactLanguage: Type.Optional(Nullable(Type.Boolean())),
  },
  { additionalProperties: false, $id: 'OctoWebhookBody' },
);
export type OctoWebhookInput = Static<typeof OctoWebhookBody>;

export const OCTO_WEBHOOK_SCHEMAS = [
  OctoWebhook,
  OctoWebhooks,
  OctoCreatedWebhook,
  OctoWebhookBody,
];

export const octoWebhookRoutes: FastifyPluginAsyncTypebox<{
  webhooks: OctoWebhooksService;
}> = async (app, { webhooks }) => {
  app.post(
    '/webhooks',
    {
      schema: octoSchema(
        'createOctoWebhook',
        'Register a receiver for booking_update (this reseller’s bookings) or availability_update (the seller’s departures); signed, retried (octo/webhooks). The same url and event again enables a DISABLED one, with a new secret',
        { body: refTo(OctoWebhookBody), response: { 200: refTo(OctoCreatedWebhook) } },
      ),
    },
    async (request) =>
      webhooks.create(resellerOf(request), { url: request.body.url, event: request.body.event }),
  );

  app.get(
    '/webhooks',
    {
      schema: octoSchema('listOctoWebhooks', 'This reseller’s receivers (octo/webhooks)', {
        response: { 200: refTo(OctoWebhooks) },
      }),
    },
    async (request) => webhooks.list(resellerOf(request)),
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: octoSchema('deleteOctoWebhook', 'Remove a receiver (octo/webhooks)', {
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 204: Type.Null() },
      }),
    },
    async (request, reply) => {
      await webhooks.remove(resellerOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
