/**
 * How every write of an event ends, written once for the change (`PUT`) and the upsert
 * (`POST`): the event read back as the caller will see it and announced as `event.update`
 * with what it was before (webhooks, the audit); and the refusal of a capacity below the
 * seats already taken.
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
  const view = toEventView((await eventsRepository(tx).findById(change.id))!);
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
