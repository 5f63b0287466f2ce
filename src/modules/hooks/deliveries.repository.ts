/**
 * All SQL of the webhook dispatcher: fanning new domain events out to the hooks listening
 * for them, claiming due deliveries with a lease, and recording each attempt's outcome.
 *
 * Safe with any number of dispatchers on one database: both the fan-out and the claim take
 * rows with `FOR UPDATE SKIP LOCKED` (a row being taken by one is passed over by the others)
 * and a claimed delivery carries a lease; outcomes are fenced by the attempt that claimed
 * it. Every time comparison uses the database's clock.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import { creationStamps } from '../../db/creation-clock.js';
import { fromNow } from '../../db/db-clock.js';
import { newId } from '../../db/ids.js';
import { inTransaction, type Executor } from '../../db/unit-of-work.js';
import type { DB, DomainEventsTable, HooksTable, WebhookDeliveriesTable } from '../../db/types.js';
import { PRIVATE_EVENTS } from './event-catalogue.js';
import { resellerDeliveries } from './reseller-hooks.js';

export type ClaimedDelivery = Selectable<WebhookDeliveriesTable> & {
  hook: Pick<
    Selectable<HooksTable>,
    'id' | 'owner_id' | 'reseller_id' | 'url' | 'secret_ciphertext' | 'api_version'
  >;
  event: Pick<
    Selectable<DomainEventsTable>,
    'id' | 'name' | 'actor_id' | 'object' | 'audit' | 'created_at'
  >;
};

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
     * Claims up to `limit` due deliveries of enabled hooks for `leaseMs`, oldest event first:
     * counts the attempt and sets the lease in one statement.
     */
    async claimDue(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
      const claimed = await db
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          attempts: eb('attempts', '+', 1),
          locked_until: fromNow(leaseMs),
        }))
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('webhook_deliveries as d')
            .innerJoin('hooks as h', 'h.id', 'd.hook_id')
            .select('d.id')
            .where('d.status', '=', 'pending')
            .where('h.status', '=', 'enabled')
            .where('d.next_attempt_at', '<=', sql<Date>`now()`)
            .where((w) =>
              w.or([w('d.locked_until', 'is', null), w('d.locked_until', '<=', sql<Date>`now()`)]),
            )
            .orderBy('d.next_attempt_at')
            .orderBy('d.event_seq')
            .limit(limit)
            .forUpdate('d')
            .skipLocked(),
        )
        .returningAll()
        .execute();
      if (claimed.length === 0) return [];
      const [hooks, events] = await Promise.all([
        db
          .selectFrom('hooks')
          .select(['id', 'owner_id', 'reseller_id', 'url', 'secret_ciphertext', 'api_version'])
          .where('id', 'in', [...new Set(claimed.map((d) => d.hook_id))])
          .execute(),
        db
          .selectFrom('domain_events')
          .select(['id', 'name', 'actor_id', 'object', 'audit', 'created_at'])
          .where('id', 'in', [...new Set(claimed.map((d) => d.event_id))])
          .execute(),
      ]);
      const hookOf = new Map(hooks.map((h) => [h.id, h]));
      const eventOf = new Map(events.map((e) => [e.id, e]));
      return claimed
        .filter((d) => hookOf.has(d.hook_id))
        .map((d) => ({ ...d, hook: hookOf.get(d.hook_id)!, event: eventOf.get(d.event_id)! }));
    },

    /**
     * Gives a claim back untried (its host or its owner was busy), due again after `delayMs`
     * so the deliveries of other hosts and owners come first meanwhile; the attempt is not
     * counted.
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
     */
    async record(
      claim: Pick<ClaimedDelivery, 'id' | 'attempts'>,
      outcome: AttemptOutcome,
      next: 'delivered' | 'give-up' | number,
    ): Promise<boolean> {
      return inTransaction(db, async (trx) => {
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
        return true;
      });
    },
  };
}

export type DeliveriesRepository = ReturnType<typeof deliveriesRepository>;
