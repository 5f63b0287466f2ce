/**
 * The request a webhook delivery sends: its body rendered in the hook's API version (or by
 * the OCTo module, for a reseller's hook) and its Standard Webhooks signature. Whatever
 * goes wrong here (a transform that throws, a secret this instance cannot open) comes back
 * as an error the dispatcher records as a failed attempt, never thrown.
 */
import { Webhook } from 'standardwebhooks';
import type { Db } from '../../db/database.js';
import type { ApiKeyCipher } from '../../security/api-keys.js';
import { auditOf, type Audit } from '../../outbox/index.js';
import type { VersionRegistry } from '../../versions/registry.js';
import { applyTransforms } from '../../versions/transforms.js';
import type { ClaimedDelivery } from './delivery-claims.repository.js';
import { openSecret } from './hook-secrets.js';

/** A delivery to a reseller's hook, as its renderer reads it. */
export interface ResellerDelivery {
  hookId: string;
  url: string;
  resellerId: string;
  /** The domain event's name (`order.update`, `event.update` ...) and its object. */
  eventName: string;
  object: unknown;
}
export type ResellerRenderer = (delivery: ResellerDelivery) => Promise<Record<string, unknown>>;

/** What rendering and signing need of the dispatcher's options. */
export interface RequestDeps {
  db: Db;
  cipher: ApiKeyCipher;
  versions: VersionRegistry;
  renderForReseller?: ResellerRenderer;
}

/** The body a subscriber receives: Xola's `{eventName, data, audit}`, in its version. */
export async function renderPayload(
  delivery: Pick<ClaimedDelivery, 'event' | 'hook'>,
  versions: VersionRegistry,
  db: Db,
): Promise<Record<string, unknown>> {
  const data = structuredClone(delivery.event.object) as Record<string, unknown>;
  const audit = delivery.event.audit as Audit | null;
  // Who made the change (a user id), when it was a user.
  const actor = delivery.event.actor_id ? { actor: { id: delivery.event.actor_id } } : {};
  const transforms = versions.objectTransforms(delivery.hook.api_version);
  if (transforms.length === 0) {
    return { eventName: delivery.event.name, data, ...(audit ? { audit } : {}), ...actor };
  }
  // The audit is rendered in the version too: the object before the change (its audited
  // fields set back) and after go through the transforms together, and are compared again.
  const before = { ...data };
  for (const [field, change] of Object.entries(audit ?? {})) before[field] = change.old;
  const [oldShape, newShape] = (await applyTransforms([before, data], transforms, {
    db,
    caller: null,
  })) as Record<string, unknown>[];
  return {
    eventName: delivery.event.name,
    data: newShape,
    ...(audit ? { audit: auditOf(oldShape!, newShape!) } : {}),
    ...actor,
  };
}

/**
 * The body a delivery sends, or why it has none. A payload that cannot be rendered (a
 * transform of the hook's version that throws, say) is a failed attempt: recorded, retried
 * on the schedule and given up like any other. Thrown, it would leave the delivery
 * unrecorded and the lease would hand it back for ever, first in line each time.
 */
async function renderBody(
  options: RequestDeps,
  delivery: ClaimedDelivery,
): Promise<{ body: string } | { error: string }> {
  const { reseller_id: resellerId } = delivery.hook;
  try {
    const payload =
      resellerId !== null && options.renderForReseller
        ? await options.renderForReseller({
            hookId: delivery.hook.id,
            url: delivery.hook.url,
            resellerId,
            eventName: delivery.event.name,
            object: delivery.event.object,
          })
        : await renderPayload(delivery, options.versions, options.db);
    return { body: JSON.stringify(payload) };
  } catch (error) {
    return { error: `payload not rendered: ${String(error)}` };
  }
}

/**
 * The signature headers of a body, or why there are none. A secret this instance cannot
 * open (a wrong or missing `BOOKING_SECRET`, a rotation it has not been given, a damaged
 * row) is a failed attempt like a payload that cannot be rendered: thrown, the delivery
 * would never be recorded and the lease would hand it back for ever (review-octo finding 6).
 */
function signatureHeaders(
  options: RequestDeps,
  delivery: ClaimedDelivery,
  body: string,
): { headers: Record<string, string> } | { error: string } {
  try {
    const signer = new Webhook(openSecret(options.cipher, delivery.hook));
    const sentAt = new Date();
    return {
      headers: {
        'webhook-id': delivery.event.id,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': signer.sign(delivery.event.id, sentAt, body),
      },
    };
  } catch (error) {
    return { error: `signing secret unreadable: ${String(error)}` };
  }
}

/** The rendered and signed request a delivery sends, or why it has none. */
export async function prepare(
  options: RequestDeps,
  delivery: ClaimedDelivery,
): Promise<{ body: string; headers: Record<string, string> } | { error: string }> {
  const rendered = await renderBody(options, delivery);
  if ('error' in rendered) return rendered;
  const signed = signatureHeaders(options, delivery, rendered.body);
  return 'error' in signed ? signed : { body: rendered.body, headers: signed.headers };
}
