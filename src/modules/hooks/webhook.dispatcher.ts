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
 * the hooks of one owner or of one reseller (delivery-slots.ts), and `maxInFlight` in all,
 * shared fairly between budgets, the last quarter kept for budgets that hold none or only
 * reserve slots (delivery-shares.ts); polls do not wait for deliveries, so one slow
 * receiver holds up only its own. A poll claims only what it has slots for
 * (delivery-claims.repository.ts): a delivery over a cap stays in the table, untouched,
 * until a slot frees, and the next poll comes as soon as one does (under a backlog, the
 * walk of every hook at most once a poll interval).
 */
import type { Db } from '../../db/database.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { ApiKeyCipher } from '../../security/api-keys.js';
import { webhookDeliveries, webhookLag } from '../../metrics/index.js';
import { pollLoop } from '../../outbox/index.js';
import type { VersionRegistry } from '../../versions/registry.js';
import { deliveryShares, type Holding } from './delivery-shares.js';
import { deliverySlots } from './delivery-slots.js';
import {
  deliveriesRepository,
  type ClaimedDelivery,
  type DueDelivery,
  type Walks,
} from './deliveries.repository.js';
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
  /** Deliveries in flight at once, across hosts (a quarter kept for budgets holding none). */
  maxInFlight?: number;
  /** The body of a reseller's hook (OCTo's webhooks, rendered by the OCTo module). */
  renderForReseller?: ResellerRenderer;
}

export interface WebhookDispatcher {
  start(): void;
  /** Claims no more deliveries (a stop begins: http/module.ts, Worker); those in flight go on. */
  stopClaiming(): void;
  /** Stops claiming, and resolves once every delivery in flight has been sent and recorded. */
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

type Repo = ReturnType<typeof deliveriesRepository>;

/**
 * The poll's fan-out: at every timed poll, and when polls follow freed slots, only while
 * fan-outs find events or once a poll interval (a fast receiver frees a slot every few
 * milliseconds, and an empty fan-out each time halved the pace on the embedded database).
 * A failure is logged and the poll goes on to claim: deliveries already due, every
 * tenant's, must not wait on the fan-out (review-hooks finding 1).
 */
function fanOuts(repo: Repo, logger: WebhookLogger, pollMs: number) {
  /** When a fan-out last found no new event, or failed (`performance.now()`). */
  let idleAt = -Infinity;
  return async (woken: boolean): Promise<void> => {
    if (woken && performance.now() - idleAt < pollMs) return;
    try {
      const taken = await repo.fanOut(200);
      idleAt = taken > 0 ? -Infinity : performance.now();
    } catch (error) {
      idleAt = performance.now();
      logger.error({ error: String(error) }, 'webhook fan-out failed');
    }
  };
}

interface Claiming {
  repo: Repo;
  slots: ReturnType<typeof deliverySlots>;
  maxInFlight: number;
  leaseMs: number;
  pollMs: number;
  /** Deliveries of one hook that can start at once: its host's or its budget's cap. */
  perHook: number;
  /** The last walk under a backlog, kept a poll interval (delivery-claims.repository.ts). */
  walks: Walks;
}

/**
 * Claims and starts (`start`) as many due deliveries as there is room for. The claim reads
 * past full budgets and hosts in fair turns, and this chooses among the due deliveries
 * those with a free slot and a share (delivery-shares.ts), taking each slot as it chooses
 * (given back for any another dispatcher claimed first): nothing is claimed that cannot
 * start now. `waiting`: due work may have been left for want of a slot, a cap's or the
 * room's, so the next poll should come as soon as one frees.
 */
async function startDue(
  { repo, slots, maxInFlight, leaseMs, pollMs, perHook, walks }: Claiming,
  inFlight: ReadonlyMap<Promise<boolean>, Holding>,
  start: (delivery: ClaimedDelivery, give: () => void, reserve: boolean) => Promise<boolean>,
): Promise<{ waiting: boolean; started: Promise<boolean>[] }> {
  const room = maxInFlight - inFlight.size;
  if (room <= 0) return { waiting: true, started: [] };
  const shares = deliveryShares(maxInFlight, inFlight.values());
  let passedOver = false;
  const taken = new Map<string, { give: () => void; reserve: boolean }>();
  const started: Promise<boolean>[] = [];
  const choose = (due: DueDelivery[]) =>
    due.filter((d) => {
      if (taken.size >= room || slots.full(d.hook) || !shares.allows(d.hook)) {
        passedOver = true;
        return false;
      }
      taken.set(d.id, { give: slots.take(d.hook), reserve: shares.take(d.hook) });
      return true;
    });
  try {
    const claimed = await repo.claimDue(room, leaseMs, {
      busy: shares.closing(slots.busy()),
      held: shares.held(),
      perHook: Math.min(perHook, room),
      choose,
      walks,
    });
    for (const delivery of claimed) {
      const slot = taken.get(delivery.id);
      taken.delete(delivery.id);
      if (slot) started.push(start(delivery, slot.give, slot.reserve));
      else await repo.release(delivery, pollMs); // not chosen: cannot happen, but never lost
    }
  } finally {
    for (const { give } of taken.values()) give();
  }
  // A cap full now (after what this poll took) may hold due work back unread.
  const full = shares.closing(slots.busy());
  const capped = full.owners.length + full.resellers.length + full.hosts.length > 0;
  return { waiting: started.length >= room || passedOver || capped, started };
}

export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const { db, logger, pollMs, timeoutMs } = options;
  const repo = deliveriesRepository(db);
  const claiming: Claiming = {
    repo,
    slots: deliverySlots({
      perHost: options.concurrencyPerHost,
      perOwner: options.concurrencyPerOwner,
    }),
    maxInFlight: options.maxInFlight ?? 64,
    // A lease long enough for the POST and for recording its outcome.
    leaseMs: timeoutMs * 2 + 5000,
    pollMs,
    perHook: Math.min(options.concurrencyPerHost, options.concurrencyPerOwner),
    walks: { everyMs: pollMs },
  };
  const fanOut = fanOuts(repo, logger, pollMs);
  /**
   * Each delivery in flight, with its hook (whose budget it counts against) and whether it
   * took a reserve slot (delivery-shares.ts).
   */
  const inFlight = new Map<Promise<boolean>, Holding>();

  /** Sends a claimed delivery in the slot taken for it (`give` hands the slot back). */
  function track(delivery: ClaimedDelivery, give: () => void, reserve: boolean): Promise<boolean> {
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
    inFlight.set(work, { hook: delivery.hook, reserve });
    return work;
  }

  /**
   * Fans out, then starts what is due and has a slot. Does not wait for the deliveries: a
   * slow receiver keeps its own slots busy, never the poll loop. `woken`: this poll follows
   * a freed slot, not a whole interval.
   */
  async function poll(woken = false) {
    // Once a stop began, nothing more is claimed, here or after the fan-out: a delivery
    // claimed now may not be sent and recorded before the process exits (its lease then
    // brings it back to be sent twice).
    if (loop.stopped) return { waiting: false, started: [] };
    await fanOut(woken);
    if (loop.stopped) return { waiting: false, started: [] };
    return startDue(claiming, inFlight, track);
  }

  let woken = false;
  const loop = pollLoop(
    'webhook dispatcher',
    async () => {
      const { waiting } = await poll(woken);
      woken = waiting;
      if (!waiting) return pollMs;
      // Due work waits for a slot (the room's or a cap's): go again as soon as one frees,
      // at the latest a poll. Waiting a whole poll held a fast receiver to its host's cap
      // per poll: 8 deliveries a second (review-hooks finding 4).
      await Promise.race([...inFlight.keys(), delay(pollMs)]);
      return 0;
    },
    (error) => {
      logger.error({ error: String(error) }, 'webhook poll failed');
      return pollMs;
    },
  );

  return {
    start: () => loop.start(),
    stopClaiming: () => loop.stopClaiming(),
    async stop() {
      await loop.stop();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight.keys()]);
    },
    async runOnce() {
      const { started } = await poll();
      return (await Promise.all(started)).filter(Boolean).length;
    },
  };
}
