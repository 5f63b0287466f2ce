/**
 * The webhook fan-out (deliveries.repository.ts's `fanOut`): new domain events become one
 * delivery per hook that hears them, in one transaction that marks them fanned out. Events
 * are taken with `FOR UPDATE SKIP LOCKED`, so dispatchers sharing a database each take their
 * own. How much one fan-out writes is bounded (DELIVERIES_PER_FAN_OUT), and the rows go in
 * one statement of array parameters, whatever their number (`insertDeliveries`).
 */
import { sql, type Kysely } from 'kysely';
import { creationTime } from '../../db/creation-clock.js';
import { newId } from '../../db/ids.js';
import { inTransaction, type Executor } from '../../db/unit-of-work.js';
import type { DB } from '../../db/types.js';
import { PRIVATE_EVENTS } from './event-catalogue.js';
import { resellerDeliveries } from './reseller-hooks.js';

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

/**
 * Deliveries one fan-out writes at most, unless its first event alone has more (an event is
 * heard by at most its seller's 50 hooks, MAX_HOOKS_PER_USER, and its resellers'); the
 * events past the budget wait, in order, for the next fan-out. It bounds the work of one
 * transaction, the events it holds locked meanwhile and the poll it delays, whoever makes
 * the events: 200 events of a seller with 50 `*` hooks were 10,000 deliveries at once.
 */
export const DELIVERIES_PER_FAN_OUT = 5000;

/** The first events, in order, whose deliveries fit the budget; always at least one. */
function withinBudget(
  events: readonly FanEvent[],
  pairs: readonly { hook: FanHook; event: FanEvent }[],
): { events: FanEvent[]; pairs: { hook: FanHook; event: FanEvent }[] } {
  const heardBy = new Map<string, number>();
  for (const { event } of pairs) heardBy.set(event.id, (heardBy.get(event.id) ?? 0) + 1);
  let taken = 0;
  let deliveries = 0;
  for (const event of events) {
    const more = heardBy.get(event.id) ?? 0;
    if (taken > 0 && deliveries + more > DELIVERIES_PER_FAN_OUT) break;
    deliveries += more;
    taken += 1;
  }
  const kept = events.slice(0, taken);
  const ids = new Set(kept.map((e) => e.id));
  return { events: kept, pairs: pairs.filter((p) => ids.has(p.event.id)) };
}

/** A delivery as the fan-out makes it. */
export interface NewDelivery {
  id: string;
  /** Its `created_at` and `updated_at`. */
  at: Date;
  hook_id: string;
  event_id: string;
  event_name: string;
  event_seq: number;
}

/**
 * Writes new deliveries in one statement whatever their number: each column is one array
 * parameter (`unnest`), so it binds six parameters however many rows it has. A multi-row
 * VALUES list bound seven a row, and a batch past 9,362 deliveries went over PostgreSQL's
 * 65,535: the fan-out failed on the same events at every poll, and webhook delivery stopped
 * for every tenant (review-hooks finding 1). A delivery already made (the same hook and
 * event) is left as it is.
 */
export async function insertDeliveries(db: Executor, rows: readonly NewDelivery[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <T>(of: (row: NewDelivery) => T) => rows.map(of);
  await db
    .insertInto('webhook_deliveries')
    .columns(['id', 'created_at', 'updated_at', 'hook_id', 'event_id', 'event_name', 'event_seq'])
    .expression(
      sql`select d.id, d.at, d.at, d.hook_id, d.event_id, d.event_name, d.event_seq
        from unnest(${column((r) => r.id)}::text[],
          ${column((r) => r.at.toISOString())}::timestamptz[],
          ${column((r) => r.hook_id)}::text[],
          ${column((r) => r.event_id)}::text[],
          ${column((r) => r.event_name)}::text[],
          ${column((r) => r.event_seq)}::bigint[])
          as d(id, at, hook_id, event_id, event_name, event_seq)`,
    )
    .onConflict((oc) => oc.constraint('webhook_deliveries_hook_event').doNothing())
    .execute();
}

/** Up to `limit` events not fanned out yet, oldest first, locked (passing over locked ones). */
const newEvents = (trx: Executor, limit: number): Promise<FanEvent[]> =>
  trx
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

/** The enabled hooks of the events' sellers (their own and their resellers'). */
async function hooksOf(trx: Executor, events: readonly FanEvent[]): Promise<FanHook[]> {
  const owners = [...new Set(events.flatMap((e) => (e.seller_id ? [e.seller_id] : [])))];
  if (owners.length === 0) return [];
  return trx
    .selectFrom('hooks')
    .select(['id', 'owner_id', 'reseller_id', 'event_name', 'hears_after', 'hears_private'])
    .where('owner_id', 'in', owners)
    .where('status', '=', 'enabled')
    .execute();
}

/**
 * Turns up to `limit` new domain events into deliveries, one per enabled hook of the event's
 * seller that listens for its name (or `*`) and existed when it happened, or of a reseller
 * following it; fewer events when their deliveries would pass DELIVERIES_PER_FAN_OUT.
 * Returns how many events were taken. One transaction: an event is marked fanned out
 * exactly when its deliveries exist.
 */
export async function fanOut(db: Kysely<DB>, limit: number): Promise<number> {
  return inTransaction(db, async (trx) => {
    const read = await newEvents(trx, limit);
    if (read.length === 0) return 0;
    const { events, pairs } = withinBudget(
      read,
      await listeners(trx, read, await hooksOf(trx, read)),
    );
    // One stamp per event, shared by its deliveries (each of another hook): a hook's
    // deliveries are in the events' order, and a burst moves the creation clock (every
    // object's createdAt) ahead by an event's millisecond, not by one per delivery.
    const stampOf = new Map(events.map((e) => [e.id, creationTime()]));
    await insertDeliveries(
      trx,
      pairs.map(({ hook, event }) => ({
        id: newId(),
        at: stampOf.get(event.id)!,
        hook_id: hook.id,
        event_id: event.id,
        event_name: event.name,
        event_seq: event.seq,
      })),
    );
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
}
