/**
 * What other modules may ask of resources: the resources an experience names (to check
 * them), the seats departures take and give back (the events module's seat interface calls
 * these inside its transaction, after its events' seats), and the guests a departure may
 * still add for availability. Views, never rows.
 */
import type { Executor, Tx } from '../../db/unit-of-work.js';
import { LoadTimeline } from './resource-load.js';
import { guestsLeft } from './resource-seats.js';

export { resourceFull } from './resource-seats.js';
import { resourceSeatsRepository } from './resource-seats.repository.js';
import { resourcesRepository } from './resources.repository.js';
import { relist } from './resource-relist.js';
import { heldOf, span, take, type ResourceUse } from './resource-take.js';

export type { ResourceHold, ResourceUse } from './resource-take.js';
import { toResourceView, type ResourceView } from './resources.schemas.js';

export const resourcesFacade = {
  findMany: async (db: Executor, ids: readonly string[]): Promise<ResourceView[]> =>
    (await resourcesRepository(db).findMany(ids)).map(toResourceView),

  /**
   * Of these resources, those that still exist, locked until the transaction ends (a new
   * experience naming them: a concurrent delete then waits and sees it, or went first).
   */
  existing: async (tx: Tx, ids: readonly string[]): Promise<Set<string>> =>
    new Set((await resourcesRepository(tx).lock([...new Set(ids)].sort())).map((r) => r.id)),

  seats: {
    take,
    /** Departures gave seats back: what they hold of resources follows (one statement). */
    settle: (tx: Tx, events: readonly { eventId: string; reserved: number }[]): Promise<void> =>
      resourceSeatsRepository(tx).settle(events),
    relist,
    /** The windows over which a departure holds resources (to see whether they moved). */
    windowsOf: async (tx: Tx, eventId: string) =>
      (await resourceSeatsRepository(tx).windowsOf(eventId)).map((w) => ({
        resourceId: w.resource_id,
        start: w.starts_at,
        end: w.ends_at,
      })),
  },

  /**
   * The guests each departure may still add as far as its resources go (what it holds
   * already counted): by `key`, the smallest over its resources and the resource that sets
   * it; one query for all. Each resource's timeline is built once (resource-load.ts): the
   * cost grows with departures plus windows, not with their product.
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
    const timelines = new Map([...loads].map(([id, l]) => [id, new LoadTimeline(heldOf(l))]));
    for (const d of departures) {
      for (const use of d.uses) {
        const load = loads.get(use.id);
        if (!load) continue;
        const timeline = timelines.get(use.id)!;
        const fits = guestsLeft(load.capacity, use.seatsPerGuest, timeline, d.start, d.end);
        if (fits < (left.get(d.key)?.left ?? Infinity))
          left.set(d.key, { left: fits, resource: { id: load.id, name: load.name } });
      }
    }
    return left;
  },
};

export type ResourcesFacade = typeof resourcesFacade;
