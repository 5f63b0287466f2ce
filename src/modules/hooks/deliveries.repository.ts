/**
 * All SQL of the webhook dispatcher: fanning new domain events out to the hooks listening
 * for them, claiming due deliveries with a lease (the claim's SQL is delivery-claims.repository.ts), and
 * recording each attempt's outcome.
 *
 * Safe with any number of dispatchers on one database: both the fan-out and the claim take
 * rows with `FOR UPDATE SKIP LOCKED` (a row being taken by one is passed over by the others)
 * and a claimed delivery carries a lease; outcomes are fenced by the attempt that claimed
 * it. Every time comparison uses the database's clock.
 */
import { sql, type Kysely } from 'kysely';
import { creationStamps } from '../../db/creation-clock.js';
import { fromNow } from '../../db/db-clock.js';
import { newId } from '../../db/ids.js';
import { inTransaction, type Executor, type Tx } from '../../db/unit-of-work.js';
import type { DB } from '../../db/types.js';
import { claimDue, type ClaimedDelivery, type ClaimPlan } from './delivery-claims.repository.js';
import { PRIVATE_EVENTS } from './event-catalogue.js';
import { resellerDeliveries } from './reseller-hooks.js';

export type { ClaimedDelivery, ClaimPlan, DueDelivery } from './delivery-claims.repository.js';

const MAX_TEXT = 1024;

export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  response: string | null;
}

/** A new domain event as the fan-out reads it, and a hook that may hear it. */
interface FanEvent {
  id: string;
  seq: number;
  name: string;
  seller_id: string | null;
  object_id: string | null;
  experience_id: string | null;
}
interface FanHook {
  id: string;
  owner_id: string;
  reseller_id: string | null;
  event_name: string;
  hears_after: number;
  hears_private: boolean;
}

/**
 * Which hook hears which event: a hook of the event's seller made before the event was
 * numbered, the seller's own when it listens for that name (or `*`), a reseller's when the
 * event is what OCTo's event follows (its bookings, its seller's visible products:
 * reseller-hooks.ts).
 */
async function listeners(
  trx: Executor,
  events: readonly FanEvent[],
  hooks: readonly FanHook[],
): Promise<{ hook: FanHook; event: FanEvent }[]> {
  const eventOf = new Map(events.map((e) => [e.id, e]));
  const hookOf = new Map(hooks.map((h) => [h.id, h]));
  // Numbers, not stamps: an event's `created_at` is the database's clock, a hook's the
  // creation clock of the instance that made it (migrations/0022_hook_hears_after.ts).
  const heard = (h: FanHook, event: FanEvent) =>
    h.owner_id === event.seller_id &&
    h.hears_after < event.seq &&
    (h.hears_private || !PRIVATE_EVENTS.has(event.name));
  const forResellers = await resellerDeliveries(
    trx,
    events.map((e) => ({
      id: e.id,
      name: e.name,
      objectId: e.object_id,
      experienceId: e.experience_id,
    })),
    hooks,
    (hookId, eventId) => heard(hookOf.get(hookId)!, eventOf.get(eventId)!),
  );
  return [
    ...events.flatMap((event) =>
      hooks
        .filter(
          (h) =>
            h.reseller_id === null &&
            heard(h, event) &&
            (h.event_name === '*' || h.event_name === event.name),
        )
        .map((hook) => ({ hook, event })),
    ),
    ...forResellers.map((p) => ({ hook: hookOf.get(p.hookId)!, event: eventOf.get(p.eventId)! })),
  ];
}

export function deliveriesRepository(db: Kysely<DB>) {
  return {
    /**
     * Turns up to `limit` new domain events into deliveries, one per enabled hook of the
     * event's seller that listens for its name (or `*`) and existed when it happened.
     * Returns how many events were taken. One transaction: an event is marked fanned out
     * exactly when its deliveries exist.
     */
    async fanOut(limit: number): Promise<number> {
      return inTransaction(db, async (trx) => {
        const events = await trx
          .selectFrom('domain_events')
          .select(['id', 'seq', 'name', 'seller_id'])
          // What resellers' hooks are matched on (reseller-hooks.ts).
          .select(sql<string | null>`object->>'id'`.as('object_id'))
          .select(sql<string | null>`object->'experience'->>'id'`.as('experience_id'))
          .where(sql<boolean>`not fanned_out`) // the partial index's own predicate
          .orderBy('seq')
          .limit(limit)
          .forUpdate()
          .skipLocked()
          .execute();
        if (events.length === 0) return 0;
        const owners = [...new Set(events.flatMap((e) => (e.seller_id ? [e.seller_id] : [])))];
        const hooks =
          owners.length === 0
            ? []
            : await trx
                .selectFrom('hooks')
                .select([
                  'id',
                  'owner_id',
                  'reseller_id',
                  'event_name',
                  'hears_after',
                  'hears_private',
                ])
                .where('owner_id', 'in', owners)
                .where('status', '=', 'enabled')
                .execute();
        const pairs = await listeners(trx, events, hooks);
        const deliveries = pairs.map(({ hook: h, event }) => ({
          id: newId(),
          // In the events' order: one transaction makes many deliveries of a hook.
          ...creationStamps(),
          hook_id: h.id,
          event_id: event.id,
          event_name: event.name,
          event_seq: event.seq,
        }));
        if (deliveries.length > 0) {
          await trx
            .insertInto('webhook_deliveries')
            .values(deliveries)
            .onConflict((oc) => oc.constraint('webhook_deliveries_hook_event').doNothing())
            .execute();
        }
        await trx
          .updateTable('domain_events')
          .set({ fanned_out: true })
          .where(
            'id',
            'in',
            events.map((e) => e.id),
          )
          .execute();
        return events.length;
      });
    },

    /**
     * Claims up to `limit` due deliveries of enabled hooks for `leaseMs`, oldest event first,
     * leaving out full budgets and hosts and claiming only what `plan.choose` picks
     * (delivery-claims.repository.ts): counts the attempt and sets the lease in one statement.
     */
    claimDue: (limit: number, leaseMs: number, plan?: ClaimPlan): Promise<ClaimedDelivery[]> =>
      claimDue(db, limit, leaseMs, plan),

    /**
     * Gives a claim back untried, due again after `delayMs`; the attempt is not counted. The
     * dispatcher claims only what it has slots for (delivery-claims.repository.ts), so this is its
     * safety net, not the way a busy host or owner waits.
     */
    async release(claim: Pick<ClaimedDelivery, 'id' | 'attempts'>, delayMs: number): Promise<void> {
      await db
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          attempts: eb('attempts', '-', 1),
          locked_until: null,
          next_attempt_at: fromNow(delayMs),
        }))
        .where('id', '=', claim.id)
        .where('attempts', '=', claim.attempts)
        .where('status', '=', 'pending')
        .execute();
    },

    /**
     * Records an attempt and its consequence: delivered, retried after `retryInMs`, or
     * given up (`'give-up'`). Fenced by the claiming attempt: a dispatcher whose lease ran
     * out cannot overwrite what the one that took over decided. True when it was recorded.
     * `givingUp` runs in the same transaction when it gives up (the hook disabled, its
     * owner told): a delivery is never left failed with its hook still enabled.
     */
    async record(
      claim: Pick<ClaimedDelivery, 'id' | 'attempts' | 'hook_id'>,
      outcome: AttemptOutcome,
      next: 'delivered' | 'give-up' | number,
      givingUp?: (tx: Tx) => Promise<void>,
    ): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        // Giving up writes the hook too: its row is locked before the delivery's, the order
        // a hook's deletion takes them in (the hook, then its deliveries by the cascade).
        // The other way round, a DELETE of the hook and a give-up deadlocked (a 500).
        if (next === 'give-up' && givingUp)
          await trx
            .selectFrom('hooks')
            .select('id')
            .where('id', '=', claim.hook_id)
            .forUpdate()
            .execute();
        const updated = await trx
          .updateTable('webhook_deliveries')
          .set({
            status: next === 'delivered' ? 'delivered' : next === 'give-up' ? 'failed' : 'pending',
            last_status: outcome.statusCode,
            locked_until: null,
            updated_at: sql<Date>`now()`,
            ...(next === 'delivered' ? { delivered_at: sql<Date>`now()` } : {}),
            ...(typeof next === 'number' ? { next_attempt_at: fromNow(next) } : {}),
          })
          .where('id', '=', claim.id)
          .where('attempts', '=', claim.attempts)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        if (updated.numUpdatedRows === 0n) return false;
        await trx
          .insertInto('webhook_attempts')
          .values({
            id: newId(),
            delivery_id: claim.id,
            attempt: claim.attempts,
            status_code: outcome.statusCode,
            error: outcome.error?.slice(0, MAX_TEXT) ?? null,
            duration_ms: Math.round(outcome.durationMs),
            response: outcome.response?.slice(0, MAX_TEXT) ?? null,
          })
          .execute();
        if (next === 'give-up' && givingUp) await givingUp(trx);
        return true;
      });
    },
  };
}

export type DeliveriesRepository = ReturnType<typeof deliveriesRepository>;
