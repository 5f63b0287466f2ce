/**
 * What other modules may ask of events: bookings find or make the event of a departure and
 * take or give back its seats (inside their transaction), a deleted guide leaves the events
 * to come, emails read which guides are on an event, and a booking's new events get their
 * guides when the experience asks for auto-assignment.
 */
import type { Executor, Tx } from '../../db/unit-of-work.js';
import { auditOf } from '../../outbox/index.js';
import { eventsRepository, type NewEventRow } from './events.repository.js';
import { seatsOpen, toEventView, type EventView } from './events.schemas.js';
import { experienceMustExist } from './events.rules.js';
import { autoAssign } from './assignment.js';
import type { GuidesFacade } from '../guides/index.js';

export type NewEvent = NewEventRow;

/** The experience an event is of, as its view shows it. */
export interface Shown {
  name: string;
  timezone: string;
}

/** An event's view after its seats changed by `delta`, and the audit of that change. */
function seatChange(after: EventView, delta: number) {
  const before = {
    ...after,
    quantity: { reserved: after.quantity.reserved - delta },
    open: after.open === null ? null : after.open + delta,
  };
  return { object: after, audit: auditOf(before, after) };
}

export type SeatChange = ReturnType<typeof seatChange>;

/** How a departure (an experience at a start) is named in sets and maps. */
export const departureKey = (experienceId: string, start: Date): string =>
  `${experienceId} ${start.toISOString()}`;

export const eventsFacade = {
  /**
   * The event at this start, made if missing; safe under concurrency. 404 when the
   * experience was deleted since the caller read it.
   */
  findOrCreate: (tx: Tx, event: NewEvent): Promise<{ id: string; created: boolean }> =>
    experienceMustExist(event.experience_id, eventsRepository(tx).findOrCreate(event)),

  /**
   * Takes seats if there is room, never overselling: the change (for `event.update`), or
   * null when there is no room. `shown` is the experience the event is of (its title and
   * zone), which the caller has at hand: no query to read it again.
   */
  reserve: async (tx: Tx, id: string, quantity: number, shown: Shown) => {
    const row = await eventsRepository(tx).reserve(id, quantity);
    if (!row) return null;
    return seatChange(
      toEventView({ ...row, title: shown.name, timezone: shown.timezone }),
      quantity,
    );
  },

  /**
   * Takes seats at a departure, making its event when it has none, in one statement: the
   * event's id, whether it was made, and the change (for `event.update`). Null when that
   * could not be done at once (no room, or an event made concurrently): `findOrCreate` and
   * `reserve` then decide. 404 when the experience was deleted since the caller read it.
   */
  takeSeatsAt: async (tx: Tx, event: NewEvent, quantity: number, shown: Shown) => {
    const row = await experienceMustExist(
      event.experience_id,
      eventsRepository(tx).takeSeatsAt(event, quantity),
    );
    if (!row) return null;
    const { created, ...after } = row;
    const view = toEventView({ ...after, title: shown.name, timezone: shown.timezone });
    return { id: row.id, created, change: seatChange(view, quantity) };
  },

  /**
   * Gives seats back: the change (for `event.update`), read again with its experience
   * (a cancellation may come long after the booking, the experience renamed since).
   */
  release: async (tx: Tx, id: string, quantity: number) => {
    const events = eventsRepository(tx);
    await events.release(id, quantity);
    return seatChange(toEventView((await events.findById(id))!), -quantity);
  },

  /**
   * A departure's event read afresh: its id and the seats it has left (null: no limit; 0
   * when closed by hand), or undefined when the departure has no event.
   */
  seatsAtDeparture: async (db: Executor, experienceId: string, start: Date) => {
    const row = await eventsRepository(db).findAt(experienceId, start);
    return row && { id: row.id, seatsLeft: seatsOpen(row) };
  },

  seatsLeft: (db: Executor, id: string): Promise<number | null> =>
    eventsRepository(db).seatsLeft(id),

  /**
   * The events of these experiences at these starts (one query): max and reserved, keyed by
   * `"<experience id> <start ISO>"`.
   */
  seatsAt: async (db: Executor, experienceIds: readonly string[], starts: readonly Date[]) => {
    const rows = await eventsRepository(db).startingAtMany(experienceIds, starts);
    return new Map(
      rows.map((r) => [
        departureKey(r.experienceId, r.start),
        { max: r.max, reserved: r.reserved, manual: r.manual },
      ]),
    );
  },

  /**
   * Which of these departures (experience and start, pairwise) are events opened by hand,
   * as `"<experience id> <start ISO>"` (one query).
   */
  openedByHand: async (
    db: Executor,
    experienceIds: readonly string[],
    starts: readonly Date[],
  ): Promise<Set<string>> => {
    const rows = await eventsRepository(db).startingAtMany([...new Set(experienceIds)], starts);
    return new Set(
      rows.filter((r) => r.manual === true).map((r) => departureKey(r.experienceId, r.start)),
    );
  },

  leaveFutureEvents: (tx: Tx, guideId: string, now: Date): Promise<void> =>
    eventsRepository(tx).removeGuideFromFuture(guideId, now),

  guidesOf: (db: Executor, eventIds: readonly string[]): Promise<Map<string, string[]>> =>
    eventsRepository(db).guidesOf(eventIds),
};

export type EventsFacade = typeof eventsFacade;

/** What an experience asks of guides on its events (its `guide` preferences). */
export interface Staffing {
  required: number;
  autoAssign: boolean;
}

/**
 * Gives a new event its guides when its experience asks for auto-assignment: `required`
 * of them, at least one (autoAssign with required 0 still means "a guide, please"). The
 * guides assigned; an event gets fewer (or none) when not enough are free (docs/guides.md).
 */
export async function staffNewEvent(
  tx: Tx,
  guides: GuidesFacade,
  eventId: string,
  staffing: Staffing | null,
): Promise<string[]> {
  if (!staffing?.autoAssign) return [];
  const event = (await eventsRepository(tx).findById(eventId))!;
  return autoAssign(tx, guides, event, Math.max(staffing.required, 1));
}

/** The facade bookings use: the events' own, and the staffing of the events they create. */
export const bookingEventsFacade = (guides: GuidesFacade) => ({
  ...eventsFacade,
  staffNewEvent: (tx: Tx, eventId: string, staffing: Staffing | null) =>
    staffNewEvent(tx, guides, eventId, staffing),
});

export type BookingEventsFacade = ReturnType<typeof bookingEventsFacade>;
