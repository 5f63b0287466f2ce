/**
 * A resource's load over time, built once from its held windows and then asked for the peak
 * over any departure's window in O(log W) (docs/resources.md, "Bounded work"). The answers
 * are `peakIn`'s (resource-seats.ts), which reads every window it is given: asked once per
 * departure over the windows around it, that cost departures x overlapping windows, and
 * week-long windows every 15 minutes overlap 700 each (seconds for one availability).
 *
 * The instants where windows start or end cut time into segments, each with one load; a
 * segment tree keeps the most of any run of segments. It also takes windows added or taken
 * away (a range add), so a recount of many departures (`take`) checks each against the
 * others as they stand then, without reading them again.
 */
import type { Held } from './resource-seats.js';

/** A window to be added later: its instants become segment bounds up front. */
export interface Window {
  start: Date;
  end: Date;
}

/** How many of the sorted `points` are below `t` (`orAt`: at or below). */
function countBelow(points: Float64Array, t: number, orAt = false): number {
  let [low, high] = [0, points.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    const p = points[middle]!;
    if (p < t || (orAt && p === t)) low = middle + 1;
    else high = middle;
  }
  return low;
}

const bump = (values: Float64Array, i: number, by: number) => {
  values[i] = values[i]! + by;
};

/** The distinct instants where the windows start or end, sorted. */
function boundsOf(windows: readonly Window[]): Float64Array {
  const all = new Float64Array(windows.length * 2);
  windows.forEach((w, i) => {
    all[2 * i] = w.start.getTime();
    all[2 * i + 1] = w.end.getTime();
  });
  all.sort();
  let n = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[n - 1]) all[n++] = all[i]!;
  return all.slice(0, n);
}

/**
 * Segment `i` is `[points[i], points[i + 1])` (the last runs on, empty: every window has
 * ended). `most[v]` is the highest load under node `v`, counting the loads added to `v` and
 * below (`added[v]`), not those of its ancestors.
 */
export class LoadTimeline {
  private readonly points: Float64Array;
  private readonly most: Float64Array;
  private readonly added: Float64Array;
  /** Seats of the windows that start at each point: an empty range's load excludes them. */
  private readonly opening: Float64Array;

  /** `held` as it stands; `later`, windows that `add` may be asked for. */
  constructor(held: readonly Held[], later: readonly Window[] = []) {
    this.points = boundsOf([...held, ...later]);
    const n = Math.max(1, this.points.length);
    this.most = new Float64Array(4 * n);
    this.added = new Float64Array(4 * n);
    this.opening = new Float64Array(n);
    const loads = new Float64Array(n);
    for (const h of held) {
      const [from, to] = [this.at(h.start), this.at(h.end)];
      if (from >= to) continue; // empty: it holds no moment
      bump(loads, from, h.seats);
      bump(loads, to, -h.seats);
      bump(this.opening, from, h.seats);
    }
    for (let i = 1; i < n; i++) bump(loads, i, loads[i - 1]!);
    this.build(1, 0, n - 1, loads);
  }

  /**
   * The most seats held at any moment of `[start, end)`; when it is empty (`end` at
   * `start`), what the windows strictly around `start` hold, as `peakIn` says. A window
   * never ends before it starts (the events table checks it).
   */
  peak(start: Date, end: Date): number {
    const [from, to] = [start.getTime(), end.getTime()];
    if (to <= from) return this.strictlyAround(from);
    const first = countBelow(this.points, from, true) - 1;
    const last = countBelow(this.points, to) - 1;
    if (last < 0) return 0;
    return Math.max(0, this.query(1, 0, this.size - 1, Math.max(first, 0), last));
  }

  /** Adds `seats` (taken away when negative) over a window given to the constructor. */
  add(window: Window, seats: number): void {
    const [from, to] = [this.at(window.start), this.at(window.end)];
    if (from >= to) return;
    bump(this.opening, from, seats);
    this.update(1, 0, this.size - 1, from, to - 1, seats);
  }

  private get size(): number {
    return this.opening.length;
  }

  /** The segment a bound of a known window starts. */
  private at(instant: Date): number {
    return countBelow(this.points, instant.getTime());
  }

  /** What the windows with `start < t < end` hold: `peakIn` of an empty range at `t`. */
  private strictlyAround(t: number): number {
    const segment = countBelow(this.points, t, true) - 1;
    if (segment < 0) return 0;
    const load = this.query(1, 0, this.size - 1, segment, segment);
    return this.points[segment] === t ? load - this.opening[segment]! : load;
  }

  private build(v: number, low: number, high: number, loads: Float64Array): void {
    if (low === high) {
      this.most[v] = loads[low]!;
      return;
    }
    const middle = (low + high) >>> 1;
    this.build(2 * v, low, middle, loads);
    this.build(2 * v + 1, middle + 1, high, loads);
    this.most[v] = Math.max(this.most[2 * v]!, this.most[2 * v + 1]!);
  }

  private update(v: number, low: number, high: number, from: number, to: number, x: number) {
    if (to < low || high < from) return;
    if (from <= low && high <= to) {
      bump(this.most, v, x);
      bump(this.added, v, x);
      return;
    }
    const middle = (low + high) >>> 1;
    this.update(2 * v, low, middle, from, to, x);
    this.update(2 * v + 1, middle + 1, high, from, to, x);
    this.most[v] = this.added[v]! + Math.max(this.most[2 * v]!, this.most[2 * v + 1]!);
  }

  private query(v: number, low: number, high: number, from: number, to: number): number {
    if (to < low || high < from) return -Infinity;
    if (from <= low && high <= to) return this.most[v]!;
    const middle = (low + high) >>> 1;
    return (
      this.added[v]! +
      Math.max(
        this.query(2 * v, low, middle, from, to),
        this.query(2 * v + 1, middle + 1, high, from, to),
      )
    );
  }
}
