/**
 * The webhook dispatcher: on each poll it fans new domain events out to the hooks listening
 * for them, then claims due deliveries (deliveries.repository.ts: safe with several
 * dispatchers on one database), renders each payload in its hook's API version, signs it
 * (Standard Webhooks: `webhook-id` is the event id, the same on every attempt, so receivers
 * dedupe by it), POSTs it and records the attempt. A failure is retried on the configured
 * schedule with jitter; when the schedule is spent the delivery fails, the hook is disabled
 * and its owner told (`onDisabled`).
 *
 * At most `concurrencyPerHost` requests go to one host at a time, `concurrencyPerOwner` to
 * the hooks of one owner (delivery-slots.ts), and `maxInFlight` in all; polls do not wait
 * for deliveries, so one slow receiver holds up only its own. A delivery over a cap goes back
 * with `release` and is due again after a poll, behind the others due by then.
 */
import { Webhook } from 'standardwebhooks';
import type { Db } from '../../db/database.js';
import { inTransaction, type Tx } from '../../db/unit-of-work.js';
import type { ApiKeyCipher } from '../../security/api-keys.js';
import { webhookDeliveries, webhookLag } from '../../metrics/index.js';
import { auditOf, pollLoop, type Audit } from '../../outbox/index.js';
import type { VersionRegistry } from '../../versions/registry.js';
import { applyTransforms } from '../../versions/transforms.js';
import { deliverySlots } from './delivery-slots.js';
import { deliveriesRepository, type ClaimedDelivery } from './deliveries.repository.js';
import { hooksRepository } from './hooks.repository.js';
import { toHookView, type HookView } from './hooks.schemas.js';
import { openSecret } from './hook-secrets.js';
import type { WebhookSend } from './webhook-sender.js';

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

export interface WebhookLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface WebhookDispatcherOptions {
  db: Db;
  cipher: ApiKeyCipher;
  versions: VersionRegistry;
  send: WebhookSend;
  logger: WebhookLogger;
  /** Delays before each retry; when all are spent the hook is disabled. */
  retryScheduleMs: readonly number[];
  pollMs: number;
  timeoutMs: number;
  concurrencyPerHost: number;
  concurrencyPerOwner: number;
  /**
   * Told once a hook is disabled after its deliveries kept failing (emails the owner), in
   * the transaction that disables it: the notice is queued if and only if that commits.
   */
  onDisabled(tx: Tx, hook: HookView): Promise<void>;
  /** Deliveries in flight at once, across hosts. */
  maxInFlight?: number;
  /** The body of a reseller's hook (OCTo's webhooks, rendered by the OCTo module). */
  renderForReseller?: ResellerRenderer;
}

export interface WebhookDispatcher {
  start(): void;
  stop(): Promise<void>;
  /** Fans out and delivers one batch now; resolves to how many deliveries succeeded. */
  runOnce(): Promise<number>;
}

/** ±20 %: retries of many deliveries that failed together do not arrive together. */
const jitter = (ms: number) => Math.round(ms * (0.8 + Math.random() * 0.4));

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

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
  options: WebhookDispatcherOptions,
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

/** POSTs a rendered body to the delivery's hook, signed with the hook's secret. */
function sendSigned(
  options: WebhookDispatcherOptions,
  delivery: ClaimedDelivery,
  body: string,
): ReturnType<WebhookSend> {
  const signer = new Webhook(openSecret(options.cipher, delivery.hook));
  const sentAt = new Date();
  return options.send({
    url: delivery.hook.url,
    body,
    headers: {
      'webhook-id': delivery.event.id,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': signer.sign(delivery.event.id, sentAt, body),
    },
  });
}

/**
 * Sends one claimed delivery, signed, and records its outcome: delivered, retried after the
 * next delay of the schedule, or given up (the hook disabled and its owner told). Whether
 * it was delivered.
 */
async function deliverOne(
  options: WebhookDispatcherOptions,
  repo: ReturnType<typeof deliveriesRepository>,
  delivery: ClaimedDelivery,
): Promise<boolean> {
  const { db, logger, retryScheduleMs } = options;
  const context = {
    deliveryId: delivery.id,
    hookId: delivery.hook.id,
    attempt: delivery.attempts,
  };
  const rendered = await renderBody(options, delivery);
  const outcome =
    'error' in rendered
      ? { ok: false, statusCode: null, error: rendered.error, response: null, durationMs: 0 }
      : await sendSigned(options, delivery, rendered.body);
  const retryIndex = delivery.attempts - delivery.round_start - 1;
  const next = outcome.ok
    ? 'delivered'
    : retryIndex < retryScheduleMs.length
      ? jitter(retryScheduleMs[retryIndex]!)
      : 'give-up';
  const recorded = await repo.record(delivery, outcome, next);
  if (!recorded) return outcome.ok;
  webhookDeliveries.inc({
    result: outcome.ok ? 'delivered' : next === 'give-up' ? 'gave_up' : 'failed',
  });
  if (outcome.ok) {
    webhookLag.observe((Date.now() - delivery.event.created_at.getTime()) / 1000);
    logger.info({ ...context, status: outcome.statusCode }, 'webhook delivered');
  } else if (next === 'give-up') {
    logger.error({ ...context, status: outcome.statusCode }, 'webhook failed; hook disabled');
    await inTransaction(db, async (tx) => {
      const hook = await hooksRepository(tx).setStatus(delivery.hook.id, 'disabled');
      if (hook) await options.onDisabled(tx, toHookView(hook));
    });
  } else {
    logger.warn(
      { ...context, status: outcome.statusCode, error: outcome.error, retryInMs: next },
      'webhook failed; will retry',
    );
  }
  return outcome.ok;
}

export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const { db, logger, pollMs, timeoutMs } = options;
  // A lease long enough for the POST and for recording its outcome.
  const leaseMs = timeoutMs * 2 + 5000;
  const repo = deliveriesRepository(db);
  const maxInFlight = options.maxInFlight ?? 64;
  const slots = deliverySlots({
    perHost: options.concurrencyPerHost,
    perOwner: options.concurrencyPerOwner,
  });
  const inFlight = new Set<Promise<boolean>>();

  function track(delivery: ClaimedDelivery): Promise<boolean> {
    const give = slots.take(delivery.hook);
    const work = deliverOne(options, repo, delivery)
      .catch((error: unknown) => {
        // Recording failed (database trouble): the lease brings the delivery back.
        logger.error({ deliveryId: delivery.id, error: String(error) }, 'webhook not recorded');
        return false;
      })
      .finally(() => {
        inFlight.delete(work);
        give();
      });
    inFlight.add(work);
    return work;
  }

  /**
   * Fans out, then starts as many due deliveries as there is room for. Does not wait for
   * them: a slow receiver keeps its own slots busy, never the poll loop.
   */
  async function poll(): Promise<{ room: number; started: Promise<boolean>[] }> {
    await repo.fanOut(200);
    const room = maxInFlight - inFlight.size;
    if (room <= 0) return { room, started: [] };
    const started: Promise<boolean>[] = [];
    for (const delivery of await repo.claimDue(room, leaseMs)) {
      if (slots.full(delivery.hook)) {
        await repo.release(delivery, pollMs);
        continue;
      }
      started.push(track(delivery));
    }
    return { room, started };
  }

  const loop = pollLoop(
    'webhook dispatcher',
    async () => {
      const { room, started } = await poll();
      if (room <= 0 || started.length < room) return pollMs;
      // Room filled: more may be due; go again as soon as a slot frees, at the latest a poll.
      await Promise.race([...inFlight, delay(pollMs)]);
      return 0;
    },
    (error) => {
      logger.error({ error: String(error) }, 'webhook poll failed');
      return pollMs;
    },
  );

  return {
    start: () => loop.start(),
    async stop() {
      await loop.stop();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async runOnce() {
      const { started } = await poll();
      return (await Promise.all(started)).filter(Boolean).length;
    },
  };
}
