import { describe, expect, it } from 'vitest';
import type { DomainError } from '../../../src/domain/errors.js';
import {
  addSeats,
  checkItemIds,
  customerMayChange,
  sameLines,
  seatsHeld,
} from '../../../src/modules/orders/order-changes.js';
import type { OrderItemRow } from '../../../src/modules/orders/orders.schemas.js';

const row = (id: string, event_id: string, quantity: number, status = 200, at = '2030-01-01') =>
  ({
    id,
    event_id,
    quantity,
    status,
    arrival_datetime: new Date(`${at}T09:00:00Z`),
  }) as OrderItemRow;

describe('seat deltas', () => {
  it('counts only items that hold seats, and nets a move to zero where nothing changes', () => {
    const before = [row('a', 'E1', 2), row('b', 'E2', 1, 700), row('c', 'E3', 1, 103)];
    expect(seatsHeld(before)).toEqual([
      ['E1', 2],
      ['E3', 1],
    ]);
    const after = [row('a', 'E4', 3), row('c', 'E3', 1, 103)];
    const deltas = addSeats(addSeats(new Map(), seatsHeld(before), -1), seatsHeld(after), 1);
    expect(Object.fromEntries([...deltas].map(([id, d]) => [id, d.delta]))).toEqual({
      E1: -2,
      E3: 0,
      E4: 3,
    });
  });
});

describe('checkItemIds', () => {
  const items = [row('a', 'E1', 1), row('b', 'E1', 1, 700)];
  const fails = (inputs: { id?: string }[]) => {
    try {
      checkItemIds(items, inputs);
    } catch (error) {
      return [(error as DomainError).code, (error as DomainError).extra.errors?.[0]?.detail];
    }
    return undefined;
  };

  it('takes live items of the order and new ones, each named once', () => {
    expect(fails([{ id: 'a' }, {}])).toBeUndefined();
    expect(fails([{ id: 'x' }])).toEqual(['validation_failed', 'is not an item of this order']);
    expect(fails([{ id: 'a' }, { id: 'a' }])).toEqual(['validation_failed', 'is listed twice']);
    expect(fails([{ id: 'b' }])).toEqual(['item_canceled', 'is canceled and cannot be changed']);
  });
});

describe('customerMayChange', () => {
  it('refuses once a live item has departed; canceled ones do not count', () => {
    const now = new Date('2030-06-01T00:00:00Z');
    expect(() => customerMayChange([row('a', 'E', 1, 200, '2030-07-01')], now)).not.toThrow();
    expect(() => customerMayChange([row('a', 'E', 1, 200, '2030-05-01')], now)).toThrow(
      /has started/,
    );
    expect(() =>
      customerMayChange(
        [row('a', 'E', 1, 700, '2030-05-01'), row('b', 'E', 1, 200, '2030-07-01')],
        now,
      ),
    ).not.toThrow();
  });
});

describe('sameLines', () => {
  it('compares guest types and quantities in any order, ignoring empty lines', () => {
    const a = { demographic: { id: 'a' }, quantity: 2 };
    const c = { demographic: { id: 'c' }, quantity: 1 };
    expect(sameLines([a, c], [c, a])).toBe(true);
    expect(sameLines([a], [a, { demographic: { id: 'c' }, quantity: 0 }])).toBe(true);
    expect(sameLines([a], [{ ...a, quantity: 3 }])).toBe(false);
  });
});
