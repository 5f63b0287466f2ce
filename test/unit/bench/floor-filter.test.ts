/** `--only` and the floor comparison (bench/floor-questions.ts): which questions run. */
import { describe, expect, it } from 'vitest';
import { floorFilter } from '../../../bench/floor-questions.js';

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
