/**
 * Domain events: every change others may care about (an order booked or canceled, an
 * experience changed, a guide assigned...), written in the same transaction as the change.
 * The events table is the one outbox: each side effect (a confirmation email, a webhook
 * delivery) is a job a consumer derives from an event, in that same transaction, so a job
 * exists exactly when its change committed. Modules emit through an `EventSink`; app.ts
 * decides which consumers listen (modules never know them).
 */
import type { TSchema } from 'typebox';
import type { Tx } from '../db/unit-of-work.js';
import { newId } from '../db/ids.js';
import { domainEventsRepository } from './domain-events.repository.js';

/** What changed in an update: each field's value before and after. */
export type Audit = Record<string, { old: unknown; new: unknown }>;

/**
 * What each event carries, by name: `{object: <the view>; hints?: {...}}`. Empty here; each
 * module declares the events it emits into it (its `<name>.events.ts`, by declaration
 * merging), so `emit` checks an event's object and hints against its name, consumers get
 * them typed by narrowing on the name, and the outbox never imports a module.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the modules
export interface DomainEventMap {}

/** `order.create`, `experience.update` ... (docs/webhooks.md). */
export type EventName = Extract<keyof DomainEventMap, string>;

/** The object an event carries: as the API shows it, in the latest version's shape. */
export type EventObject<N extends EventName> = DomainEventMap[N] extends { object: infer O }
  ? O
  : never;

interface EventOf<N extends EventName> {
  name: N;
  /** Whose hooks hear it: the seller the object belongs to (the user, for `user.update`). */
  sellerId: string | null;
  /** Who made the change. */
  actorId: string | null;
  object: EventObject<N>;
  audit?: Audit;
}

/**
 * One event, typed by its name. `hints` (where the name declares them) are for consumers in
 * this process only, never stored nor delivered (e.g. whether a booking's confirmation is
 * sent).
 */
export type DomainEvent<N extends EventName = EventName> = {
  [K in N]: EventOf<K> & Omit<DomainEventMap[K], 'object'>;
}[N];

export type StoredEvent<N extends EventName = EventName> = DomainEvent<N> & { id: string };

/**
 * How docs/webhooks.md describes an event (scripts/webhook-reference.ts): the schema of its
 * object, when it happens, and for events that carry an audit an example of one.
 */
export interface EventDoc {
  object: TSchema;
  /** Completes "When ...": `an order is booked`. */
  when: string;
  auditExample?: Audit;
}

/** The descriptions of events `N`: a module's, all of them for the catalogue. */
export type EventDocs<N extends EventName> = { readonly [K in N]: EventDoc };

export interface EventConsumer {
  /** Derives its jobs from the event, inside the transaction that made it. */
  onEvent(tx: Tx, event: StoredEvent): Promise<void>;
}

export interface EventSink {
  emit(tx: Tx, event: DomainEvent): Promise<void>;
}

/** Emits nothing: for services used outside the application (the CLI, tests). */
export const noEvents: EventSink = { emit: async () => undefined };

/**
 * `store: false` runs the consumers without storing the events (so without webhooks): only
 * the benchmark uses it, to measure what storing them costs a booking.
 */
export function createEventSink(
  consumers: readonly EventConsumer[],
  { store = true }: { store?: boolean } = {},
): EventSink {
  return {
    async emit(tx, event) {
      const stored: StoredEvent = { ...event, id: newId() };
      if (store) await domainEventsRepository(tx).insert(stored);
      for (const consumer of consumers) await consumer.onEvent(tx, stored);
    },
  };
}

/** The fields of `after` that differ from `before` (compared as JSON), with both values. */
export function auditOf(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  ignore: readonly string[] = ['updatedAt'],
): Audit {
  const audit: Audit = {};
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (ignore.includes(field)) continue;
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) {
      audit[field] = { old: before[field] ?? null, new: after[field] ?? null };
    }
  }
  return audit;
}

/** An `emitChange` argument: the event with its object after the change and, if any, before. */
export type Change<N extends EventName = EventName> = {
  [K in N]: Omit<EventOf<K>, 'object' | 'audit'> &
    Omit<DomainEventMap[K], 'object'> & {
      after: EventObject<K>;
      before?: EventObject<K> | undefined;
    };
}[N];

/** A change of one object, emitted: with the audit of what changed when it had a before. */
export function emitChange(sink: EventSink, tx: Tx, change: Change): Promise<void> {
  const { after, before, ...event } = change;
  return sink.emit(tx, {
    ...event,
    object: after,
    ...(before ? { audit: auditOf(before, after) } : {}),
  } as DomainEvent);
}
