/**
 * The Hook and WebhookDelivery objects (schema, view type, row mapper) and the request
 * bodies of the hooks endpoints (Xola's shape: `{eventName, url}`).
 */
import { Type, type Static } from 'typebox';
import { Id, Nullable, Ref, Timestamp, listOf } from '../../http/schemas.js';
import { iso, refOrNull } from '../shared/index.js';
import { HOOK_EVENT_NAMES } from './event-catalogue.js';
import type { AttemptRow, DeliveryRow, HookRow } from './hooks.repository.js';

export const MAX_HOOK_URL_LENGTH = 2000;

export const Hook = Type.Object(
  {
    object: Type.Literal('hook'),
    id: Id,
    user: Ref,
    eventName: Type.String({ description: 'An event name (docs/webhooks.md), or `*` for all' }),
    url: Type.String(),
    apiVersion: Type.String({ description: 'The API version payloads are rendered in' }),
    status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
    disabledAt: Nullable(Timestamp),
    createdBy: Nullable({
      ...Ref,
      description:
        'The user who made it: the owner, a seller-admin delegate (whose hooks are disabled when the delegation ends, docs/security.md) or an admin; null if made before this was recorded',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Hook' },
);
export type HookView = Static<typeof Hook>;
export const HookList = listOf(Hook);

export const HookSecret = Type.Object(
  {
    secret: Type.String({
      description: 'The signing secret (`whsec_...`, Standard Webhooks); keep it server-side',
    }),
  },
  { $id: 'HookSecret' },
);

/** The answer to a create: the hook and, this once, its secret. */
export const CreatedHook = Type.Intersect([Hook, HookSecret], { $id: 'CreatedHook' });

export const CreateHookBody = Type.Object(
  {
    eventName: Type.Enum([...HOOK_EVENT_NAMES]),
    url: Type.String({ minLength: 8, maxLength: MAX_HOOK_URL_LENGTH, format: 'uri' }),
    apiVersion: Type.Optional(
      Type.String({
        pattern: '^\\d{4}-\\d{2}-\\d{2}$',
        maxLength: 10,
        description: "Default: the caller's version (its header, its account's, or the latest)",
      }),
    ),
  },
  { additionalProperties: false },
);

export const HookParams = Type.Object({ id: Id, hookId: Id });
export const DeliveryParams = Type.Object({ id: Id, hookId: Id, deliveryId: Id });

export const DeliveryAttempt = Type.Object({
  attempt: Type.Integer(),
  statusCode: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  durationMs: Type.Integer(),
  response: Nullable(Type.String({ description: 'The first 1 KiB of the response body' })),
  createdAt: Timestamp,
});

export const WebhookDelivery = Type.Object(
  {
    object: Type.Literal('webhook_delivery'),
    id: Id,
    hook: Ref,
    event: Type.Object({ id: Id, name: Type.String() }),
    status: Type.Union([
      Type.Literal('pending'),
      Type.Literal('delivered'),
      Type.Literal('failed'),
    ]),
    nextAttemptAt: Nullable(Timestamp),
    deliveredAt: Nullable(Timestamp),
    attempts: Type.Array(DeliveryAttempt),
    createdAt: Timestamp,
  },
  { $id: 'WebhookDelivery' },
);
export type WebhookDeliveryView = Static<typeof WebhookDelivery>;
export const WebhookDeliveryList = listOf(WebhookDelivery);

export function toHookView(row: HookRow): HookView {
  return {
    object: 'hook',
    id: row.id,
    user: { id: row.owner_id },
    eventName: row.event_name,
    url: row.url,
    apiVersion: row.api_version,
    status: row.status,
    disabledAt: row.disabled_at ? iso(row.disabled_at) : null,
    createdBy: refOrNull(row.created_by),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function toDeliveryView(row: DeliveryRow, attempts: AttemptRow[]): WebhookDeliveryView {
  return {
    object: 'webhook_delivery',
    id: row.id,
    hook: { id: row.hook_id },
    event: { id: row.event_id, name: row.event_name },
    status: row.status,
    nextAttemptAt: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    deliveredAt: row.delivered_at ? iso(row.delivered_at) : null,
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      statusCode: a.status_code,
      error: a.error,
      durationMs: a.duration_ms,
      response: a.response,
      createdAt: iso(a.created_at),
    })),
    createdAt: iso(row.created_at),
  };
}
