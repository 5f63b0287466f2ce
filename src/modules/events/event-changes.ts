/**
 * How every write of an event ends, written once for the change (`PUT`), the upsert
 * (`POST`), the assignment of guides and a deleted guide leaving its events: the event read
 * back as the caller will see it and announced as `event.update` with what it was before
 * (webhooks, the audit); and the refusal of a capacity below the seats already taken.
 */
import type { Tx } from '../../db/unit-of-work.js';
import { DomainError } from '../../domain/errors.js';
import { emitChange, type EventSink } from '../../outbox/index.js';
import { eventsRepository } from './events.repository.js';
import { type EventRow, type EventView, toEventView } from './events.schemas.js';

export async function announceEventUpdate(
  domainEvents: EventSink,
  tx: Tx,
  change: { id: string; sellerId: string; actorId: string; before: EventRow | undefined },
): Promise<EventView> {
  const after = (await eventsRepository(tx).findById(change.id))!;
  return emitEventUpdate(domainEvents, tx, { ...change, after });
}

/**
 * `event.update` for an event whose rows before and after the change the caller holds
 * already (a deleted guide leaving many events reads them by the page, not one by one).
 */
export async function emitEventUpdate(
  domainEvents: EventSink,
  tx: Tx,
  change: { sellerId: string; actorId: string; before: EventRow | undefined; after: EventRow },
): Promise<EventView> {
  const view = toEventView(change.after);
  await emitChange(domainEvents, tx, {
    name: 'event.update',
    sellerId: change.sellerId,
    actorId: change.actorId,
    after: view,
    before: change.before && toEventView(change.before),
  });
  return view;
}

/** 409: `max` below the seats reserved (their number, when the caller knows it). */
export const capacityBelowReserved = (reserved?: number): DomainError =>
  new DomainError(
    'capacity_below_reserved',
    `max is below the ${reserved === undefined ? '' : `${reserved} `}seats already reserved on this event.`,
    { errors: [{ in: 'body', name: 'max', detail: 'is below the seats already reserved' }] },
  );
