import { describe, expect, it } from 'vitest';
import { groupSizeError } from '../../../src/modules/orders/orders.rules.js';

describe('groupSizeError', () => {
  const limits = (orderMin: number | null, orderMax: number | null) => ({ orderMin, orderMax });

  it('accepts any size without limits', () => {
    expect(groupSizeError(limits(null, null), 1)).toBeUndefined();
    expect(groupSizeError(limits(null, null), 10_000)).toBeUndefined();
  });

  it('accepts sizes within the limits, both inclusive', () => {
    for (const quantity of [2, 3, 5]) {
      expect(groupSizeError(limits(2, 5), quantity)).toBeUndefined();
    }
    expect(groupSizeError(limits(3, 3), 3)).toBeUndefined();
  });

  it('refuses fewer than orderMin seats', () => {
    expect(groupSizeError(limits(2, 5), 1)).toBe('books at least 2 seats at a time');
    expect(groupSizeError(limits(2, null), 1)).toBe('books at least 2 seats at a time');
    expect(groupSizeError(limits(2, null), 1000)).toBeUndefined();
  });

  it('refuses more than orderMax seats', () => {
    expect(groupSizeError(limits(2, 5), 6)).toBe('books at most 5 seats at a time');
    expect(groupSizeError(limits(null, 5), 6)).toBe('books at most 5 seats at a time');
    expect(groupSizeError(limits(null, 5), 1)).toBeUndefined();
  });
});
