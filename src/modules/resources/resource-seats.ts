/**
 * Seats of resources over time, as pure rules (docs/resources.md). A departure holds
 * `reserved x seatsPerGuest` seats of each resource its experience uses for its whole
 * window `[start, end)`; a resource's load at a moment is the sum of what the departures
 * whose windows cover that moment hold. A departure may grow while, at every moment of its
 * window, the load stays within the capacity.
 */
import { DomainError } from '../../domain/errors.js';

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
 * What departures hold of one resource, sorted by start, to find the windows around a
 * moment without reading them all: availability over a year asks for every departure of
 * the year, and filtering every held window for each of them grew as their product.
 */
export interface HeldIndex {
  byStart: readonly Held[];
  /** The longest window: one covering `from` starts no earlier than `from` less this. */
  longestMs: number;
}

export function indexHeld(held: readonly Held[]): HeldIndex {
  const byStart = [...held].sort((a, b) => a.start.getTime() - b.start.getTime());
  const longestMs = byStart.reduce(
    (most, h) => Math.max(most, h.end.getTime() - h.start.getTime()),
    0,
  );
  return { byStart, longestMs };
}

/** The first position in `byStart` whose window starts at or after `t`. */
function firstStartingAt(byStart: readonly Held[], t: number): number {
  let [low, high] = [0, byStart.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (byStart[middle]!.start.getTime() < t) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The held windows that may overlap `[start, end)` (a superset; peakIn filters exactly). */
export function heldAround(index: HeldIndex, start: Date, end: Date): readonly Held[] {
  const from = firstStartingAt(index.byStart, start.getTime() - index.longestMs);
  const to = firstStartingAt(index.byStart, end.getTime());
  return index.byStart.slice(from, to);
}

/** Guests a departure over `[start, end)` may still add, held as they are. */
export const guestsLeft = (
  capacity: number,
  seatsPerGuest: number,
  held: readonly Held[],
  start: Date,
  end: Date,
): number => Math.max(0, Math.floor((capacity - peakIn(held, start, end)) / seatsPerGuest));

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
