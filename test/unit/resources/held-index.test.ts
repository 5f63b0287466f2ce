/**
 * The index of held windows (src/modules/resources/resource-seats.ts): for any windows and
 * any departure, the windows it hands out hold every one that overlaps the departure, so
 * the peak (and the guests left) are what reading every window gives.
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
