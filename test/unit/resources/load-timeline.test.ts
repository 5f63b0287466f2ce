/**
 * A resource's timeline (src/modules/resources/resource-load.ts) answers what `peakIn`,
 * which reads every window, answers: for random windows on a small grid (so starts, ends and
 * departures often meet at the same instant), empty windows and empty departures included;
 * and again after windows are taken out and put back one by one, as a take or a relist
 * does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoadTimeline } from '../../../src/modules/resources/resource-load.js';
import { guestsLeft, peakIn, type Held } from '../../../src/modules/resources/resource-seats.js';

const MINUTE = 60_000;
const spanFields = {
  startMin: fc.integer({ min: 0, max: 60 }),
  lengthMin: fc.integer({ min: 0, max: 30 }),
};
const seats = fc.integer({ min: 0, max: 12 });
const span = fc.record(spanFields);
const window = fc.record({ ...spanFields, seats });
type Span = { startMin: number; lengthMin: number };

const at = (s: Span) => ({
  start: new Date(s.startMin * MINUTE),
  end: new Date((s.startMin + s.lengthMin) * MINUTE),
});
const held = (list: readonly (Span & { seats: number })[]): Held[] =>
  list.map((w, i) => ({ eventId: `e${i}`, ...at(w), seats: w.seats }));

describe('LoadTimeline', () => {
  it('gives the peak peakIn gives, for any windows and departures', () => {
    fc.assert(
      fc.property(
        fc.array(window, { maxLength: 40 }),
        fc.array(span, { minLength: 1, maxLength: 20 }),
        (windows, departures) => {
          const all = held(windows);
          const timeline = new LoadTimeline(all);
          for (const d of departures) {
            const { start, end } = at(d);
            expect(timeline.peak(start, end)).toBe(peakIn(all, start, end));
            expect(guestsLeft(30, 2, timeline, start, end)).toBe(
              guestsLeft(30, 2, all, start, end),
            );
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('follows windows taken out and put back, as a take checks departures in turn', () => {
    const step = fc.record({ index: fc.nat(), seats, ...spanFields });
    fc.assert(
      fc.property(
        fc.array(window, { maxLength: 30 }),
        fc.array(step, { minLength: 1, maxLength: 30 }),
        (windows, steps) => {
          let current = held(windows);
          // Each step moves departure `index` (an existing one or a new one) to its window.
          const moved = steps.map((s) => {
            const eventId = `e${s.index % (windows.length + steps.length)}`;
            return { eventId, ...at(s), seats: s.seats };
          });
          const timeline = new LoadTimeline(current, moved);
          for (const next of moved) {
            const own = current.find((h) => h.eventId === next.eventId);
            if (own) timeline.add(own, -own.seats);
            current = current.filter((h) => h.eventId !== next.eventId);
            expect(timeline.peak(next.start, next.end)).toBe(peakIn(current, next.start, next.end));
            timeline.add(next, next.seats);
            current.push(next);
            for (const probe of moved) {
              expect(timeline.peak(probe.start, probe.end)).toBe(
                peakIn(current, probe.start, probe.end),
              );
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('is empty without windows', () => {
    const timeline = new LoadTimeline([]);
    expect(timeline.peak(new Date(0), new Date(MINUTE))).toBe(0);
    expect(timeline.peak(new Date(0), new Date(0))).toBe(0);
  });
});
