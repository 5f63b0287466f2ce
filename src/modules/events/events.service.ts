/**
 * Events: one departure of an experience, with its capacity. Created or updated by the
 * seller's staff (Xola's upsert on experience and start), or on demand by bookings; a new
 * one gets its guides when the experience asks for auto-assignment. Reads are in
 * event-reads.service.ts, the upsert in event-upsert.service.ts, who sees an event in
 * event-visibility.ts.
 */
import type { Db } from '../../db/database.js';
import { inTransaction, type Tx } from '../../db/unit-of-work.js';
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { DomainError, invalid, notFound } from '../../domain/errors.js';
import { noEvents, type EventSink } from '../../outbox/index.js';
import { isDepartureStart } from '../schedules/index.js';
import { announceEventUpdate, capacityBelowReserved } from './event-changes.js';
import type { EventView } from './events.schemas.js';
import { eventsRepository } from './events.repository.js';
import { eventReads } from './event-reads.service.js';
import { eventUpsert } from './event-upsert.service.js';
import { eventVisibility } from './event-visibility.js';

export interface EventsServiceDeps {
  db: Db;
  domainEvents?: EventSink;
}

export function eventsService({ db, domainEvents = noEvents }: EventsServiceDeps) {
  const visibility = eventVisibility();

  /**
   * The event locked for a write by the seller's event staff: 404 when it does not exist or
   * the caller may not see it, 403 when it may see it but not change it.
   */
  async function lockForStaff(tx: Tx, caller: Caller, id: string) {
    const events = eventsRepository(tx);
    const locked = await events.lock(id);
    if (!locked) throw notFound(`Event ${id}`);
    const row = (await events.findById(id))!;
    if (!(await visibility.maySee(tx, caller, row))) throw notFound(`Event ${id}`);
    accessOf(caller).require('events', row.seller_id, `event ${id}`);
    return { locked, row };
  }

  return {
    ...eventReads(db),

    /**
     * Changes an event's capacity (`max`: not below the seats reserved; null = unlimited)
     * and hand-set state (`manual`: open, closed, or null to follow the schedules). The
     * seller's event staff only.
     */
    async change(
      caller: Caller,
      id: string,
      input: { max?: number | null; manual?: boolean | null },
    ): Promise<EventView> {
      return inTransaction(db, async (tx) => {
        const events = eventsRepository(tx);
        const { locked, row: before } = await lockForStaff(tx, caller, id);
        if (input.max !== undefined && input.max !== null && input.max < locked.reserved) {
          throw capacityBelowReserved(locked.reserved);
        }
        // An event made before starts had to be nameable (event-upsert.service.ts) stays
        // closed: opened, it would be listed with the wrong seats and never booked.
        const zone = locked.local_zone;
        if (input.manual === true && zone && !isDepartureStart(locked.starts_at, zone)) {
          throw invalid(
            'body',
            'manual',
            `this event starts at ${locked.starts_at.toISOString()}, which availability and bookings cannot name in ${zone} (seconds, or the first of a time lived twice): it cannot be opened`,
          );
        }
        await events.change(id, input);
        return announceEventUpdate(domainEvents, tx, {
          id,
          sellerId: before.seller_id,
          actorId: caller.id,
          before,
        });
      });
    },

    /** Deletes an event no order ever booked (409 otherwise: orders keep their history). */
    async remove(caller: Caller, id: string): Promise<void> {
      await inTransaction(db, async (tx) => {
        const events = eventsRepository(tx);
        const { locked } = await lockForStaff(tx, caller, id);
        if (locked.reserved > 0 || (await events.hasBookings(id))) {
          throw new DomainError(
            'event_has_bookings',
            'Orders booked this event; close it with manual: false instead.',
          );
        }
        await events.delete(id);
      });
    },

    upsert: eventUpsert({ db, domainEvents }),
  };
}

export type EventsService = ReturnType<typeof eventsService>;
