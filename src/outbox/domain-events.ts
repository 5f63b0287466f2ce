/**
 * Domain events: every change others may care about (an order booked or canceled, an
 * experience changed, a guide assigned...), written in the same transaction as the change.
 * The events table is the one outbox: each side effect (a confirmation email, a webhook
 * delivery) is a job a consumer derives from an event, in that same transaction, so a job
 * exists exactly when its change committed. Modules emit through an `EventSink`; app.ts
 * decides which consumers listen (modules never know them).
 */
import type { Tx } from '../db/unit-of-work.js';
import { newId } from '../db/ids.js';
import { domainEventsRepository } from './domain-events.repository.js';
import type { EventName } from './event-names.js';

/** What changed in an update: each field's value before and after. */
export type Audit = Record<string, { old: unknown; new: unknown }>;

export interface DomainEvent {
  /** `order.create`, `experience.update` ... (event-names.ts, docs/webhooks.md). */
  name: EventName;
  /** Whose hooks hear it: the seller the object belongs to (the user, for `user.update`). */
  sellerId: string | null;
  /** Who made the change. */
  actorId: string | null;
  /** The object as the API shows it (the latest version's shape). */
  object: { object: string; id: string } & Record<string, unknown>;
  audit?: Audit;
  /** For consumers in this process only, never stored nor delivered. */
  hints?: { sendConfirmation?: boolean; orderId?: string };
}

export interface StoredEvent extends DomainEvent {
  id: string;
}

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

/** A change of one object, emitted: with the audit of what changed when it had a before. */
export function emitChange(
  sink: EventSink,
  tx: Tx,
  change: Omit<DomainEvent, 'object' | 'audit'> & {
    after: DomainEvent['object'];
    before?: Record<string, unknown> | undefined;
  },
): Promise<void> {
  const { after, before, ...event } = change;
  return sink.emit(tx, {
    ...event,
    object: after,
    ...(before ? { audit: auditOf(before, after) } : {}),
  });
}
