import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  groupSizeError,
  itemAmount,
  roundCents,
} from '../../../src/modules/orders/orders.rules.js';

describe('itemAmount', () => {
  it('multiplies a per-person price by the quantity', () => {
    expect(itemAmount('person', 50, 1)).toBe(50);
    expect(itemAmount('person', 50, 4)).toBe(200);
    expect(itemAmount('person', 0, 7)).toBe(0);
  });

  it('charges an outing price once, whatever the quantity', () => {
    expect(itemAmount('outing', 300, 1)).toBe(300);
    expect(itemAmount('outing', 300, 12)).toBe(300);
    expect(itemAmount('outing', 19.99, 3)).toBe(19.99);
  });

  it('rounds per-person amounts to cents', () => {
    expect(itemAmount('person', 19.99, 3)).toBe(59.97);
    expect(1.15 * 3).not.toBe(3.45); // floating point alone gets these wrong
    expect(itemAmount('person', 1.15, 3)).toBe(3.45);
    expect(0.1 * 3).not.toBe(0.3);
    expect(itemAmount('person', 0.1, 3)).toBe(0.3);
    expect(itemAmount('person', 0.07, 100)).toBe(7);
    expect(itemAmount('person', 33.33, 3)).toBe(99.99);
  });

  it('is exact in cents for any two-decimal price and quantity', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 1, max: 10_000 }),
        (cents, quantity) => {
          const amount = itemAmount('person', cents / 100, quantity);
          expect(Math.round(amount * 100)).toBe(cents * quantity);
          expect(amount).toBe((cents * quantity) / 100);
        },
      ),
    );
  });
});

describe('roundCents', () => {
  it('rounds to two decimals', () => {
    expect(roundCents(59.970000000000006)).toBe(59.97);
    expect(roundCents(10)).toBe(10);
    expect(roundCents(10.004)).toBe(10);
    expect(roundCents(10.006)).toBe(10.01);
    expect(roundCents(0.125)).toBe(0.13);
  });
});

describe('groupSizeError', () => {
  const limits = (order_min: number | null, order_max: number | null) => ({ order_min, order_max });

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
