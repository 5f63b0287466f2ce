/**
 * The webhook dispatcher: on each poll it fans new domain events out to the hooks listening
 * for them, then claims due deliveries (deliveries.repository.ts: safe with several
 * dispatchers on one database), renders each payload in its hook's API version, signs it
 * (Standard Webhooks: `webhook-id` is the event id, the same on every attempt, so receivers
 * dedupe by it), POSTs it and records the attempt. A failure is retried on the configured
 * schedule with jitter; when the schedule is spent the delivery fails, the hook is disabled
 * and its owner told (`onDisabled`), in the transaction that records the last attempt. What
 * a request sends (its body and signature) is webhook-request.ts's.
 *
 * At most `concurrencyPerHost` requests go to one host at a time, `concurrencyPerOwner` to
 * the hooks of one owner or of one reseller (delivery-slots.ts), and `maxInFlight` in all;
 * polls do not wait for deliveries, so one slow receiver holds up only its own. A poll
 * claims only what it has slots for (delivery-claims.repository.ts): a delivery over a cap stays in
 * the table, untouched, until a slot frees.
 */
import type { Db } from '../../db/database.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { ApiKeyCipher } from '../../security/api-keys.js';
import { webhookDeliveries, webhookLag } from '../../metrics/index.js';
import { pollLoop } from '../../outbox/index.js';
import type { VersionRegistry } from '../../versions/registry.js';
import { deliverySlots } from './delivery-slots.js';
import { deliveriesRepository, type ClaimedDelivery } from './deliveries.repository.js';
import { hooksRepository } from './hooks.repository.js';
import { toHookView, type HookView } from './hooks.schemas.js';
import type { WebhookSend } from './webhook-sender.js';
import { prepare, type ResellerRenderer } from './webhook-request.js';

export type { ResellerDelivery, ResellerRenderer } from './webhook-request.js';

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
  const { logger, retryScheduleMs } = options;
  const context = {
    deliveryId: delivery.id,
    hookId: delivery.hook.id,
    attempt: delivery.attempts,
  };
  const request = await prepare(options, delivery);
  const outcome =
    'error' in request
      ? { ok: false, statusCode: null, error: request.error, response: null, durationMs: 0 }
      : await options.send({ url: delivery.hook.url, ...request });
  const retryIndex = delivery.attempts - delivery.round_start - 1;
  const next = outcome.ok
    ? 'delivered'
    : retryIndex < retryScheduleMs.length
      ? jitter(retryScheduleMs[retryIndex]!)
      : 'give-up';
  let disabled = false;
  // Giving up disables the hook in the transaction that records it. Only the delivery that
  // finds it still enabled disables it and tells the owner: several to one hook give up
  // together, and the owner gets one email.
  const recorded = await repo.record(delivery, outcome, next, async (tx) => {
    const hook = await hooksRepository(tx).disableFailing(delivery.hook.id);
    if (!hook) return;
    disabled = true;
    await options.onDisabled(tx, toHookView(hook));
  });
  if (!recorded) return outcome.ok;
  webhookDeliveries.inc({
    result: outcome.ok ? 'delivered' : next === 'give-up' ? 'gave_up' : 'failed',
  });
  if (outcome.ok) {
    webhookLag.observe((Date.now() - delivery.event.created_at.getTime()) / 1000);
    logger.info({ ...context, status: outcome.statusCode }, 'webhook delivered');
  } else if (next === 'give-up') {
    logger.error(
      { ...context, status: outcome.statusCode, error: outcome.error },
      disabled ? 'webhook failed; hook disabled' : 'webhook failed; hook disabled already',
    );
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

  /** Sends a claimed delivery in the slot taken for it (`give` hands the slot back). */
  function track(delivery: ClaimedDelivery, give: () => void): Promise<boolean> {
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
   * them: a slow receiver keeps its own slots busy, never the poll loop. The claim reads
   * past full budgets and hosts, and this chooses among the due deliveries those with a
   * free slot, taking each slot as it chooses (given back for any another dispatcher
   * claimed first): nothing is claimed that cannot start now.
   */
  async function poll(): Promise<{ room: number; started: Promise<boolean>[] }> {
    await repo.fanOut(200);
    const room = maxInFlight - inFlight.size;
    if (room <= 0) return { room, started: [] };
    const taken = new Map<string, () => void>();
    const started: Promise<boolean>[] = [];
    try {
      const claimed = await repo.claimDue(room, leaseMs, {
        busy: slots.busy(),
        choose: (due) =>
          due.filter((d) => {
            if (taken.size >= room || slots.full(d.hook)) return false;
            taken.set(d.id, slots.take(d.hook));
            return true;
          }),
      });
      for (const delivery of claimed) {
        const give = taken.get(delivery.id);
        taken.delete(delivery.id);
        if (give) started.push(track(delivery, give));
        else await repo.release(delivery, pollMs); // not chosen: cannot happen, but never lost
      }
    } finally {
      for (const give of taken.values()) give();
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
