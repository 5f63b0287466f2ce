/**
 * `--only`: which scenarios the bench scripts run (bench/options.ts), and which questions of
 * the floor comparison (bench/floor-questions.ts).
 */
import { describe, expect, it } from 'vitest';
import { floorFilter } from '../../../bench/floor-questions.js';
import { onlyPicks } from '../../../bench/options.js';

describe('onlyPicks', () => {
  it('picks every scenario without --only', () => {
    expect(onlyPicks(undefined, 'orders arrival=d')).toBe(true);
  });

  it('picks a scenario whose name contains any comma-separated part, and no other', () => {
    expect(onlyPicks('events,arrival=d', 'orders arrival=d')).toBe(true);
    expect(onlyPicks('events,arrival=d', 'events experience&start[range]')).toBe(true);
    expect(onlyPicks('events,arrival=d', 'GET /api/orders/{id}')).toBe(false);
  });
});

describe('floorFilter', () => {
  it('runs every question without --only', () => {
    expect(floorFilter(undefined)?.('GET /api/orders/{id}')).toBe(true);
  });

  it('runs none when --only names no floor part', () => {
    expect(floorFilter('arrival,webhooks')).toBeUndefined();
  });

  it('runs all with floor, and those containing T with floor:T', () => {
    expect(floorFilter('arrival,floor')?.('GET /api/orders/{id}')).toBe(true);
    const some = floorFilter('floor:contains,floor:GET')!;
    expect(some('orders customerName[contains], median seller')).toBe(true);
    expect(some('GET /api/orders/{id}')).toBe(true);
    expect(some('orders items.arrival[range]')).toBe(false);
  });
});
