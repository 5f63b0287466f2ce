/**
 * Seats of resources over time, as pure rules (docs/resources.md). A departure holds
 * `reserved x seatsPerGuest` seats of each resource its experience uses for its whole
 * window `[start, end)`; a resource's load at a moment is the sum of what the departures
 * whose windows cover that moment hold. A departure may grow while, at every moment of its
 * window, the load stays within the capacity.
 */
import { DomainError } from '../../domain/errors.js';
import { LoadTimeline } from './resource-load.js';

/** What one departure holds of a resource. */
export interface Held {
  eventId: string;
  start: Date;
  end: Date;
  seats: number;
}

/**
 * The most seats held at any moment of `[start, end)`, in one sweep over where windows start
 * (the load rises) and end (it falls; first, at the same instant, as a window ends before
 * that moment). Lowering a resource's capacity asks this over every departure to come (a
 * year of half-hourly departures is 17,000 windows): comparing every start with every
 * window held the event loop for seconds.
 */
export function peakIn(held: readonly Held[], start: Date, end: Date): number {
  const from = start.getTime();
  const to = end.getTime();
  const changes: [at: number, seats: number][] = [];
  for (const h of held) {
    const [opens, closes] = [h.start.getTime(), h.end.getTime()];
    if (opens < to && closes > from)
      changes.push([Math.max(opens, from), h.seats], [closes, -h.seats]);
  }
  changes.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let [load, peak] = [0, 0];
  for (const [, seats] of changes) {
    load += seats;
    peak = Math.max(peak, load);
  }
  return peak;
}

/**
 * Guests a departure over `[start, end)` may still add, held as they are: the windows
 * themselves (read once), or their timeline (asked many times: resource-load.ts).
 */
export function guestsLeft(
  capacity: number,
  seatsPerGuest: number,
  held: readonly Held[] | LoadTimeline,
  start: Date,
  end: Date,
): number {
  const peak = held instanceof LoadTimeline ? held.peak(start, end) : peakIn(held, start, end);
  return Math.max(0, Math.floor((capacity - peak) / seatsPerGuest));
}

/** 409 resource_full: the resource, the item asking, and the guests it could still take. */
export function resourceFull(
  resource: { id: string; name: string },
  item: number,
  guestsLeft: number,
  asked: number,
  event?: { id: string },
): DomainError {
  return new DomainError(
    'resource_full',
    `${resource.name} is full at this departure: ${guestsLeft} more guests fit, ${asked} were asked for.`,
    {
      resource: { id: resource.id, name: resource.name },
      item,
      ...(event ? { event } : {}),
      seatsLeft: guestsLeft,
      errors: [
        {
          in: 'body',
          name: `items.${item}.quantity`,
          detail: `${resource.name} has room for ${guestsLeft} more guests`,
        },
      ],
    },
  );
}
