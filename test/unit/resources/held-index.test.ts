/**
 * The index of held windows (src/modules/resources/resource-seats.ts): for any windows and
 * any departure, the windows it hands out hold every one that overlaps the departure, so
 * the peak (and the guests left) are what reading every window gives. The peak itself is
 * the most any minute of the range holds, counted minute by minute.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  guestsLeft,
  heldAround,
  indexHeld,
  peakIn,
  type Held,
} from '../../../src/modules/resources/resource-seats.js';

const MINUTE = 60_000;
const window = fc.record({
  startMin: fc.integer({ min: 0, max: 2000 }),
  lengthMin: fc.integer({ min: 1, max: 600 }),
  seats: fc.integer({ min: 1, max: 12 }),
});

const held = (list: { startMin: number; lengthMin: number; seats: number }[]): Held[] =>
  list.map((w, i) => ({
    eventId: `e${i}`,
    start: new Date(w.startMin * MINUTE),
    end: new Date((w.startMin + w.lengthMin) * MINUTE),
    seats: w.seats,
  }));

describe('peakIn', () => {
  it('is the most seats any minute of the range holds', () => {
    fc.assert(
      fc.property(fc.array(window, { maxLength: 40 }), window, (windows, range) => {
        const all = held(windows);
        let most = 0;
        for (let t = range.startMin; t < range.startMin + range.lengthMin; t++) {
          const at = t * MINUTE;
          const load = all
            .filter((h) => h.start.getTime() <= at && h.end.getTime() > at)
            .reduce((sum, h) => sum + h.seats, 0);
          most = Math.max(most, load);
        }
        const start = new Date(range.startMin * MINUTE);
        const end = new Date((range.startMin + range.lengthMin) * MINUTE);
        expect(peakIn(all, start, end)).toBe(most);
      }),
      { numRuns: 500 },
    );
  });

  it('does not count a window that ends as another starts', () => {
    const [a, b] = held([
      { startMin: 0, lengthMin: 60, seats: 5 },
      { startMin: 60, lengthMin: 60, seats: 7 },
    ]);
    expect(peakIn([b!, a!], new Date(0), new Date(120 * MINUTE))).toBe(7);
  });
});

describe('heldAround', () => {
  it('hands out every window that overlaps a departure: the same peak as reading all', () => {
    fc.assert(
      fc.property(fc.array(window, { maxLength: 60 }), window, (windows, departure) => {
        const all = held(windows);
        const start = new Date(departure.startMin * MINUTE);
        const end = new Date((departure.startMin + departure.lengthMin) * MINUTE);
        const around = heldAround(indexHeld(all), start, end);
        const overlapping = all.filter((h) => h.start < end && h.end > start);
        for (const h of overlapping) expect(around).toContain(h);
        expect(peakIn(around, start, end)).toBe(peakIn(all, start, end));
        expect(guestsLeft(20, 2, around, start, end)).toBe(guestsLeft(20, 2, all, start, end));
      }),
      { numRuns: 500 },
    );
  });

  it('reads a few windows of a year, not the year', () => {
    // A departure every hour for a year, each 90 minutes: one departure overlaps three.
    const year = held(
      Array.from({ length: 365 * 24 }, (_, i) => ({ startMin: i * 60, lengthMin: 90, seats: 1 })),
    );
    const start = new Date(1000 * 60 * MINUTE);
    const around = heldAround(indexHeld(year), start, new Date(start.getTime() + 90 * MINUTE));
    expect(around.length).toBeLessThanOrEqual(4);
  });
});
