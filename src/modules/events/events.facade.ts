/**
 * What other modules may ask of events: bookings find or make the event of a departure and
 * take or give back its seats (inside their transaction), a deleted guide leaves the events
 * to come, and emails read which guides are on an event.
 */
import type { Executor, Tx } from '../../db/unit-of-work.js';
import { auditOf } from '../../outbox/index.js';
import { eventsRepository } from './events.repository.js';
import { toEventView } from './events.schemas.js';
import { experienceMustExist } from './events.rules.js';

export interface NewEvent {
  id: string;
  experience_id: string;
  seller_id: string;
  starts_at: Date;
  ends_at: Date;
  max: number | null;
}

export const eventsFacade = {
  /**
   * The event at this start, made if missing; safe under concurrency. 404 when the
   * experience was deleted since the caller read it.
   */
  findOrCreate: (tx: Tx, event: NewEvent): Promise<string> =>
    experienceMustExist(event.experience_id, eventsRepository(tx).findOrCreate(event)),

  /** Takes seats if there is room (false when there is not); never oversells. */
  reserve: (tx: Tx, id: string, quantity: number): Promise<boolean> =>
    eventsRepository(tx).reserve(id, quantity),

  release: (tx: Tx, id: string, quantity: number): Promise<void> =>
    eventsRepository(tx).release(id, quantity),

  seatsLeft: (db: Executor, id: string): Promise<number | null> =>
    eventsRepository(db).seatsLeft(id),

  leaveFutureEvents: (tx: Tx, guideId: string, now: Date): Promise<void> =>
    eventsRepository(tx).removeGuideFromFuture(guideId, now),

  /** The event after its seats changed by `delta`, and what changed (for `event.update`). */
  seatChange: async (db: Executor, id: string, delta: number) => {
    const after = toEventView((await eventsRepository(db).findById(id))!);
    const before = {
      ...after,
      quantity: { reserved: after.quantity.reserved - delta },
      open: after.open === null ? null : after.open + delta,
    };
    return { object: after, audit: auditOf(before, after) };
  },

  guidesOf: (db: Executor, eventIds: readonly string[]): Promise<Map<string, string[]>> =>
    eventsRepository(db).guidesOf(eventIds),
};

export type EventsFacade = typeof eventsFacade;
