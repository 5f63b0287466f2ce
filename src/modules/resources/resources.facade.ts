/**
 * What other modules may ask of resources: the resources an experience names (to check
 * them), the seats departures take and give back (the events module's seat interface calls
 * these inside its transaction, after its events' seats), and the guests a departure may
 * still add for availability. Views, never rows.
 */
import type { Executor, Tx } from '../../db/unit-of-work.js';
import { guestsLeft, heldAround, indexHeld, resourceFull, type Held } from './resource-seats.js';

export { resourceFull } from './resource-seats.js';
import { resourceSeatsRepository, type ResourceLoad } from './resource-seats.repository.js';
import { resourcesRepository } from './resources.repository.js';
import { toResourceView, type ResourceView } from './resources.schemas.js';

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
  uses: readonly ResourceUse[];
}

const heldOf = (load: ResourceLoad): Held[] =>
  load.held.map((h) => ({
    eventId: h.event_id,
    start: new Date(h.starts_at),
    end: new Date(h.ends_at),
    seats: h.seats,
  }));

const span = (windows: readonly { start: Date; end: Date }[]) => ({
  from: new Date(Math.min(...windows.map((w) => w.start.getTime()))),
  to: new Date(Math.max(...windows.map((w) => w.end.getTime()))),
});

/**
 * Departures took seats: each resource they use must fit them at every moment of their
 * window, beside what the other departures hold, else 409 resource_full and nothing is
 * kept. The resources are locked in id order (after the events, whose seats are taken
 * first), then read with their loads: a statement of its own, whose snapshot is taken once
 * the locks are held (a lock and a read in one statement would read what the statement saw
 * before it waited: PostgreSQL re-reads only the locked row). What the departures hold is
 * written in one more statement (deferred with a booking's writes).
 */
async function take(tx: Tx, holds: readonly ResourceHold[]): Promise<void> {
  const ids = [...new Set(holds.flatMap((h) => h.uses.map((u) => u.id)))].sort();
  if (ids.length === 0) return;
  const { from, to } = span(holds);
  const seats = resourceSeatsRepository(tx);
  await resourcesRepository(tx).lock(ids);
  const loads = new Map(
    (await seats.loads(ids, from, to)).map((l) => [l.id, { ...l, held: heldOf(l) }]),
  );
  const rows = [];
  for (const hold of holds) {
    for (const use of hold.uses) {
      const load = loads.get(use.id);
      if (!load) continue; // deleted since the experience was read: nothing to share
      const others = load.held.filter((h) => h.eventId !== hold.eventId);
      const fits = guestsLeft(load.capacity, use.seatsPerGuest, others, hold.start, hold.end);
      if (hold.reserved > fits) {
        const before = hold.reserved - hold.taken;
        throw resourceFull(load, hold.item, Math.max(0, fits - before), hold.taken, {
          id: hold.eventId,
        });
      }
      const held = { ...hold, seats: hold.reserved * use.seatsPerGuest };
      load.held = [...others, held];
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

export const resourcesFacade = {
  findMany: async (db: Executor, ids: readonly string[]): Promise<ResourceView[]> =>
    (await resourcesRepository(db).findMany(ids)).map(toResourceView),

  seats: {
    take,
    /** Departures gave seats back: what they hold of resources follows (one statement). */
    settle: (tx: Tx, events: readonly { eventId: string; reserved: number }[]): Promise<void> =>
      resourceSeatsRepository(tx).settle(events),
    /** An experience now uses only `keptIds`: its departures hold no other resource. */
    releaseUnused: (tx: Tx, experienceId: string, keptIds: readonly string[]): Promise<void> =>
      resourceSeatsRepository(tx).releaseUnused(experienceId, keptIds),
  },

  /**
   * The guests each departure may still add as far as its resources go (what it holds
   * already counted): by `key`, the smallest over its resources and the resource that sets
   * it; one query for all.
   */
  async guestsLeft(
    db: Executor,
    departures: readonly { key: string; start: Date; end: Date; uses: readonly ResourceUse[] }[],
  ): Promise<Map<string, { left: number; resource: { id: string; name: string } }>> {
    const ids = [...new Set(departures.flatMap((d) => d.uses.map((u) => u.id)))];
    const left = new Map<string, { left: number; resource: { id: string; name: string } }>();
    if (ids.length === 0) return left;
    const { from, to } = span(departures);
    const loads = new Map(
      (await resourceSeatsRepository(db).loads(ids, from, to)).map((l) => [l.id, l]),
    );
    const held = new Map([...loads].map(([id, l]) => [id, indexHeld(heldOf(l))]));
    for (const d of departures) {
      for (const use of d.uses) {
        const load = loads.get(use.id);
        if (!load) continue;
        const around = heldAround(held.get(use.id)!, d.start, d.end);
        const fits = guestsLeft(load.capacity, use.seatsPerGuest, around, d.start, d.end);
        if (fits < (left.get(d.key)?.left ?? Infinity))
          left.set(d.key, { left: fits, resource: { id: load.id, name: load.name } });
      }
    }
    return left;
  },
};

export type ResourcesFacade = typeof resourcesFacade;
