/**
 * The one way seats are taken and given back (bookings, order changes, holds, OCTo): a
 * departure's event found or made, its seats taken under the row's lock and the `reserved
 * <= max` constraint, never oversold. Every call runs inside the caller's transaction and
 * visits events in one fixed order (experience then start; event id for moves), so two
 * bookings or changes never wait on each other in a cycle. What each call changed comes
 * back as `SeatChange`s, which the caller emits as `event.update` with its own actor. A
 * departure whose experience uses resources (a boat shared by experiences) takes their seats
 * too, after its events' (resources are locked last, in id order), all or nothing; seats
 * given back are given back to its resources too (docs/resources.md).
 */
import type { Executor, Tx } from '../../db/unit-of-work.js';
import { auditOf } from '../../outbox/index.js';
import type { BookableExperience } from '../experiences/index.js';
import { guidesFacade } from '../guides/index.js';
import { resourcesFacade, type ResourceHold, type ResourceUse } from '../resources/index.js';
import { autoAssign } from './assignment.js';
import { eventSeatsRepository } from './event-seats.repository.js';
import { eventsRepository, type NewEventRow } from './events.repository.js';
import { experienceMustExist } from './events.rules.js';
import { newEventAt } from './new-event.js';
import { seatsOpen, toEventView, type EventView } from './events.schemas.js';
import { capacityExceeded } from './seat-errors.js';

/** How a departure (an experience at a start) is named in sets and maps. */
export const departureKey = (experienceId: string, start: Date): string =>
  `${experienceId} ${start.toISOString()}`;

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

/** What a departure that took seats asks of the resources its experience uses. */
const holdOf = (
  eventId: string,
  change: SeatChange,
  taken: number,
  item: number,
  uses: readonly ResourceUse[],
): ResourceHold => ({
  eventId,
  start: new Date(change.object.start),
  end: new Date(change.object.end),
  reserved: change.object.quantity.reserved,
  taken,
  item,
  uses,
});

/** 404 when the experience was deleted since the caller read it. */
const findOrCreate = (tx: Tx, event: NewEventRow): Promise<{ id: string; created: boolean }> =>
  experienceMustExist(event.experience_id, eventsRepository(tx).findOrCreate(event));

/** Takes seats if there is room: the change, or null when there is none. */
async function reserve(tx: Tx, id: string, quantity: number, shown: Shown) {
  const row = await eventSeatsRepository(tx).reserve(id, quantity);
  if (!row) return null;
  return seatChange(toEventView({ ...row, title: shown.name, timezone: shown.timezone }), quantity);
}

/**
 * Gives seats back: the change, read again with its experience (a cancellation may come
 * long after the booking, the experience renamed since).
 */
async function release(tx: Tx, id: string, quantity: number) {
  await eventSeatsRepository(tx).release(id, quantity);
  return seatChange(toEventView((await eventsRepository(tx).findById(id))!), -quantity);
}

/**
 * Takes seats at a departure, making its event when it has none, in one statement. Null
 * when that could not be done at once (no room, or an event made concurrently).
 */
async function takeSeatsAt(tx: Tx, event: NewEventRow, quantity: number, shown: Shown) {
  const row = await experienceMustExist(
    event.experience_id,
    eventSeatsRepository(tx).takeSeatsAt(event, quantity),
  );
  if (!row) return null;
  const { created, ...after } = row;
  const view = toEventView({ ...after, title: shown.name, timezone: shown.timezone });
  return { id: row.id, created, change: seatChange(view, quantity) };
}

/** A departure's event read afresh: its id and seats left (null: no limit), if it has one. */
async function seatsAtDeparture(db: Executor, experienceId: string, start: Date) {
  const row = await eventsRepository(db).findAt(experienceId, start);
  return row && { id: row.id, seatsLeft: seatsOpen(row) };
}

/** What an experience asks of guides on its events (its `guide` preferences). */
export interface Staffing {
  required: number;
  autoAssign: boolean;
}

/**
 * Gives a new event its guides when its experience asks for auto-assignment: `required`
 * of them, at least one (autoAssign with required 0 still means "a guide, please"). An
 * event gets fewer (or none) when not enough are free (docs/guides.md).
 */
export async function staffNewEvent(tx: Tx, eventId: string, staffing: Staffing | null) {
  if (!staffing?.autoAssign) return [];
  const event = (await eventsRepository(tx).findById(eventId))!;
  return autoAssign(tx, guidesFacade, event, Math.max(staffing.required, 1));
}

/** Seats a request asks at one departure; `item` is the request's item errors name. */
export interface SeatRequest {
  item: number;
  experience: BookableExperience;
  start: Date;
  quantity: number;
}

/** A change of one event's seats: taken when positive, given back when negative. */
export interface SeatDelta {
  delta: number;
  /** The first item asking, for a capacity error. */
  item: number;
  /**
   * The experience the event is of, needed to take seats (event.update shows it; its
   * resources take their share).
   */
  shown?: Shown & { resources?: readonly ResourceUse[] };
}

const byDeparture = <T extends { experience: { id: string }; start: Date }>(items: readonly T[]) =>
  [...items].sort(
    (a, b) =>
      a.experience.id.localeCompare(b.experience.id) || a.start.getTime() - b.start.getTime(),
  );

/**
 * A new booking's seats: for each departure asked (the quantities of its requests added
 * up), the event found or made and the seats taken, in one statement in the usual case.
 * When that statement took nothing, or was not tried because the experience staffs its new
 * events (their guides must be on them before the seats' `event.update`), the departure is
 * read afresh: one without room is refused at once (409 capacity_exceeded, naming the first
 * item asking for it); one with room was made or freed by a concurrent booking the
 * statement could not see, and is reserved; a missing one is made, then reserved. Returns
 * each departure's event by `departureKey`, and the changes.
 */
async function take(tx: Tx, sellerId: string, requests: readonly SeatRequest[]) {
  const departures = new Map<string, SeatRequest>();
  for (const request of byDeparture(requests)) {
    const key = departureKey(request.experience.id, request.start);
    const departure = departures.get(key);
    departures.set(
      key,
      departure ? { ...departure, quantity: departure.quantity + request.quantity } : request,
    );
  }
  const eventAt = new Map<string, string>();
  const changes: SeatChange[] = [];
  const holds: ResourceHold[] = [];
  for (const [key, { item, experience, start, quantity }] of departures) {
    const event = newEventAt(sellerId, experience, start);
    const staffing = experience.guide;
    const taken = staffing?.autoAssign ? null : await takeSeatsAt(tx, event, quantity, experience);
    if (taken) {
      eventAt.set(key, taken.id);
      changes.push(taken.change);
      if (experience.resources.length > 0)
        holds.push(holdOf(taken.id, taken.change, quantity, item, experience.resources));
      continue;
    }
    const found = await seatsAtDeparture(tx, experience.id, start);
    if (found && found.seatsLeft !== null && found.seatsLeft < quantity)
      throw capacityExceeded(item, found.seatsLeft, quantity, { id: found.id });
    let id = found?.id;
    if (!id) {
      const made = await findOrCreate(tx, event);
      id = made.id;
      if (made.created) await staffNewEvent(tx, id, staffing);
    }
    const change = await reserve(tx, id, quantity, experience);
    if (!change) {
      const seatsLeft = await eventSeatsRepository(tx).seatsLeft(id);
      throw capacityExceeded(item, seatsLeft ?? 0, quantity, { id });
    }
    eventAt.set(key, id);
    changes.push(change);
    if (experience.resources.length > 0)
      holds.push(holdOf(id, change, quantity, item, experience.resources));
  }
  await resourcesFacade.seats.take(tx, holds);
  return { eventAt, changes };
}

/**
 * The events of departures that seats will move to (an order change): found or made in
 * the same fixed order; a made one gets its guides when the experience asks for
 * auto-assignment, before any seat is taken on it. Keyed by `departureKey`.
 */
async function eventsAt(
  tx: Tx,
  sellerId: string,
  departures: readonly { experience: BookableExperience; start: Date }[],
): Promise<Map<string, string>> {
  const eventAt = new Map<string, string>();
  for (const { experience, start } of byDeparture(departures)) {
    const key = departureKey(experience.id, start);
    if (eventAt.has(key)) continue;
    const { id, created } = await findOrCreate(tx, newEventAt(sellerId, experience, start));
    if (created) await staffNewEvent(tx, id, experience.guide);
    eventAt.set(key, id);
  }
  return eventAt;
}

/**
 * Moves seats by each event's delta, taken (positive) or given back (negative), in event-id
 * order. A take that does not fit answers 409 capacity_exceeded, naming the item asking.
 */
async function move(tx: Tx, deltas: ReadonlyMap<string, SeatDelta>): Promise<SeatChange[]> {
  const changes: SeatChange[] = [];
  const given: { eventId: string; reserved: number }[] = [];
  const holds: ResourceHold[] = [];
  for (const eventId of [...deltas.keys()].sort()) {
    const { delta, item, shown } = deltas.get(eventId)!;
    if (delta < 0) {
      const change = await release(tx, eventId, -delta);
      changes.push(change);
      given.push({ eventId, reserved: change.object.quantity.reserved });
    }
    if (delta <= 0) continue;
    const change = await reserve(tx, eventId, delta, shown!);
    if (change) {
      changes.push(change);
      if (shown?.resources?.length)
        holds.push(holdOf(eventId, change, delta, item, shown.resources));
      continue;
    }
    const seatsLeft = await eventSeatsRepository(tx).seatsLeft(eventId);
    throw capacityExceeded(item, seatsLeft ?? 0, delta, { id: eventId });
  }
  // Seats given back free their resources first; then those taken are checked against them.
  if (given.length > 0) await resourcesFacade.seats.settle(tx, given);
  await resourcesFacade.seats.take(tx, holds);
  return changes;
}

export const seats = { take, eventsAt, move };
