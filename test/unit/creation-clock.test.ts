/**
 * The creation clock (src/db/creation-clock.ts): strictly increasing, never behind the wall
 * clock.
 *
 * @isolated These cases drive the process's clock hours ahead of the wall clock; in a worker
 * shared with other files, every stamp taken after them would be hours in the future (a
 * poller's horizon would hide those rows, a hold's expiry would look earlier than its stamp).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { creationStamps, creationTime } from '../../src/db/creation-clock.js';

describe('creationTime', () => {
  it('is strictly increasing, back to back within one millisecond too', () => {
    const times = Array.from({ length: 5000 }, () => creationTime().getTime());
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1]!);
  });

  it('never goes back, whatever the wall clock does, and is never behind it', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5000, max: 5000 }), { maxLength: 50 }), (steps) => {
        let wall = Date.now() + 10_000_000;
        let previous = creationTime(wall).getTime();
        for (const step of steps) {
          wall += step;
          const next = creationTime(wall).getTime();
          expect(next).toBeGreaterThan(previous);
          expect(next).toBeGreaterThanOrEqual(wall);
          previous = next;
        }
      }),
    );
  });

  it('runs ahead only by the excess of a burst, then takes the wall clock again', () => {
    const wall = Date.now() + 20_000_000;
    const burst = Array.from({ length: 3 }, () => creationTime(wall).getTime());
    expect(burst).toEqual([wall, wall + 1, wall + 2]);
    expect(creationTime(wall + 1).getTime()).toBe(wall + 3);
    expect(creationTime(wall + 10).getTime()).toBe(wall + 10);
  });

  it('is whole milliseconds, written as such (the columns and the API hold milliseconds)', () => {
    const at = creationTime();
    expect(at.toISOString()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const { created_at, updated_at } = creationStamps();
    expect(updated_at).toEqual(created_at);
    expect(created_at.getTime()).toBeGreaterThan(at.getTime());
  });
});
