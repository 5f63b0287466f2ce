/**
 * Departures taking seats of the resources their experiences use (docs/resources.md): the
 * check and the write under the resources' locks, called by the events module's seat
 * interface through the facade, and by an experience changing its resources
 * (resource-relist.ts).
 */
import type { Tx } from '../../db/unit-of-work.js';
import { LoadTimeline, type Window } from './resource-load.js';
import { guestsLeft, resourceFull, type Held } from './resource-seats.js';
import { resourceSeatsRepository, type ResourceLoad } from './resource-seats.repository.js';
import { resourcesRepository } from './resources.repository.js';

/** A resource an experience's departures use, and the seats each guest takes of it. */
export interface ResourceUse {
  id: string;
  seatsPerGuest: number;
}

/** A departure that took seats: its window, its seats now, and the resources it uses. */
export interface ResourceHold {
  eventId: string;
  start: Date;
  end: Date;
  /** The departure's reserved seats after it took them. */
  reserved: number;
  /** The seats just taken (the rest were held before). */
  taken: number;
  /** The request's item asking, for a refusal. */
  item: number;
  /**
   * The resources its experience uses as the caller read it: which to lock. What it holds of
   * each follows the experience as read again under the locks (`take`).
   */
  uses: readonly ResourceUse[];
}

export const heldOf = (load: ResourceLoad): Held[] =>
  load.held.map((h) => ({
    eventId: h.event_id,
    start: new Date(h.starts_at),
    end: new Date(h.ends_at),
    seats: h.seats,
  }));

/** From the earliest start to the latest end (a loop: spreading 100,000 into Math.min overflows). */
export function span(windows: readonly { start: Date; end: Date }[]) {
  let [from, to] = [Infinity, -Infinity];
  for (const w of windows) {
    from = Math.min(from, w.start.getTime());
    to = Math.max(to, w.end.getTime());
  }
  return { from: new Date(from), to: new Date(to) };
}

/**
 * One resource's load while departures are checked one after another: each is taken out
 * of the timeline before it is checked against the others, and put back with what it holds
 * now. Every check and change is O(log W) (resource-load.ts): a relist checks every booked
 * departure ahead, and filtering and copying all windows for each grew as their square.
 */
class Holding {
  private readonly timeline: LoadTimeline;
  private readonly byEvent: Map<string, Held>;

  constructor(load: ResourceLoad, later: readonly Window[]) {
    const held = heldOf(load);
    this.timeline = new LoadTimeline(held, later);
    this.byEvent = new Map(held.map((h) => [h.eventId, h]));
  }

  /** The load of the other departures: what `eventId` holds is taken out. */
  without(eventId: string): LoadTimeline {
    const own = this.byEvent.get(eventId);
    if (own) this.timeline.add(own, -own.seats);
    this.byEvent.delete(eventId);
    return this.timeline;
  }

  /** A window given to the constructor (as `later`), held from now on. */
  put(held: Held): void {
    this.timeline.add(held, held.seats);
    this.byEvent.set(held.eventId, held);
  }
}

/**
 * Departures took seats: each resource they use must fit them at every moment of their
 * window, beside what the other departures hold, else 409 resource_full and nothing is
 * kept. The resources are locked in id order (after the events, whose seats are taken
 * first), then read with their loads: a statement of its own, whose snapshot is taken once
 * the locks are held (a lock and a read in one statement would read what the statement saw
 * before it waited: PostgreSQL re-reads only the locked row). Only the windows overlapping
 * the departures' own are read. What the departures hold is written in one more statement
 * (deferred with a booking's writes).
 *
 * `uses` say which resources to lock, as the caller read its experience, often before its
 * transaction. Under the locks, the resources each departure's experience lists now are
 * read again (with the loads, in the same statement): an experience that stopped using a
 * resource, or changed its seats per guest, did so under the same locks (experience PUT,
 * `relist`), so a taker that waited for them sees the change, and one that held them first
 * is counted by it. A resource listed since the caller's read, not locked here, is left
 * out: locking it now would break the id order; the experience's PUT counted this
 * departure's committed seats, and its next booking or change writes its whole hold
 * (docs/resources.md).
 */
export async function take(tx: Tx, holds: readonly ResourceHold[]): Promise<void> {
  const ids = [...new Set(holds.flatMap((h) => h.uses.map((u) => u.id)))].sort();
  if (ids.length === 0) return;
  const { from, to } = span(holds);
  const seats = resourceSeatsRepository(tx);
  await resourcesRepository(tx).lock(ids);
  const eventIds = [...new Set(holds.map((h) => h.eventId))];
  const read = await seats.loads(ids, from, to, eventIds, holds);
  const usesNow = read[0]?.uses ?? {};
  const loads = new Map(read.map((l) => [l.id, { ...l, holding: new Holding(l, holds) }]));
  const rows = [];
  for (const hold of holds) {
    for (const use of usesNow[hold.eventId] ?? []) {
      if (!ids.includes(use.id)) continue; // listed since the caller's read: see above
      const load = loads.get(use.id);
      if (!load) continue; // deleted since the experience was read: nothing to share
      const others = load.holding.without(hold.eventId);
      const fits = guestsLeft(load.capacity, use.seatsPerGuest, others, hold.start, hold.end);
      if (hold.reserved > fits) {
        const before = hold.reserved - hold.taken;
        throw resourceFull(load, hold.item, Math.max(0, fits - before), hold.taken, {
          id: hold.eventId,
        });
      }
      const { eventId, start, end } = hold;
      const held = { eventId, start, end, seats: hold.reserved * use.seatsPerGuest };
      load.holding.put(held);
      rows.push({
        resource_id: use.id,
        event_id: hold.eventId,
        starts_at: hold.start,
        ends_at: hold.end,
        seats_per_guest: use.seatsPerGuest,
        seats: held.seats,
      });
    }
  }
  await seats.hold(rows);
}
