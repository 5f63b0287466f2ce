import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DomainError } from '../../../src/domain/errors.js';
import { priceItem } from '../../../src/modules/orders/pricing.js';

const experience = (
  price: number,
  priceType: 'person' | 'outing' = 'person',
  currency = 'USD',
  demographics: { id: string; label: string; code: string; price: number | null }[] = [],
) => ({ price, priceType, currency, demographics: demographics as never });

const ADULT = 'a'.repeat(24);
const CHILD = 'c'.repeat(24);
const guests = [
  { id: ADULT, label: 'Adult', code: 'adult', price: null },
  { id: CHILD, label: 'Child', code: 'child', price: 12.5 },
];

describe('priceItem: a plain quantity at the experience price', () => {
  it('multiplies a per-person price by the quantity', () => {
    expect(priceItem(experience(50), { quantity: 4 }, 'items.0').amount).toBe(200);
    expect(priceItem(experience(0), { quantity: 7 }, 'items.0').amount).toBe(0);
  });

  it('charges an outing price once, whatever the quantity', () => {
    expect(priceItem(experience(300, 'outing'), { quantity: 12 }, 'items.0').amount).toBe(300);
    expect(priceItem(experience(19.99, 'outing'), { quantity: 3 }, 'items.0').amount).toBe(19.99);
  });

  it('is exact where binary floating point is not', () => {
    expect(1.15 * 3).not.toBe(3.45);
    expect(priceItem(experience(1.15), { quantity: 3 }, 'i').amount).toBe(3.45);
    expect(0.1 * 3).not.toBe(0.3);
    expect(priceItem(experience(0.1), { quantity: 3 }, 'i').amount).toBe(0.3);
    expect(priceItem(experience(0.07), { quantity: 100 }, 'i').amount).toBe(7);
    expect(priceItem(experience(33.33), { quantity: 3 }, 'i').amountMinor).toBe(9999n);
  });

  it('counts in the currency minor unit: yen have none, dinars three', () => {
    expect(priceItem(experience(1500, 'person', 'JPY'), { quantity: 3 }, 'i').amountMinor).toBe(
      4500n,
    );
    const kwd = priceItem(experience(1.125, 'person', 'KWD'), { quantity: 3 }, 'i');
    expect(kwd.amountMinor).toBe(3375n);
    expect(kwd.amount).toBe(3.375);
  });

  it('is exact in cents for any two-decimal price and quantity', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 999_999_999_999 }),
        fc.integer({ min: 1, max: 10_000 }),
        (cents, quantity) => {
          const priced = priceItem(experience(cents / 100), { quantity }, 'i');
          expect(priced.amountMinor).toBe(BigInt(cents) * BigInt(quantity));
          expect(priced.amount).toBe(
            Number(
              `${(BigInt(cents) * BigInt(quantity)) / 100n}.${String((BigInt(cents) * BigInt(quantity)) % 100n).padStart(2, '0')}`,
            ),
          );
        },
      ),
    );
  });
});

describe('priceItem: guest types', () => {
  const tour = experience(20, 'person', 'USD', guests);

  it('prices each guest type at its own price, the default at the experience price', () => {
    const priced = priceItem(
      tour,
      {
        demographics: [
          { demographic: { id: ADULT }, quantity: 2 },
          { demographic: { id: CHILD }, quantity: 3 },
        ],
      },
      'items.0',
    );
    expect(priced.quantity).toBe(5);
    expect(priced.amount).toBe(77.5);
    expect(priced.lines).toEqual([
      {
        demographic: { id: ADULT },
        label: 'Adult',
        code: 'adult',
        quantity: 2,
        price: 20,
        amount: 40,
      },
      {
        demographic: { id: CHILD },
        label: 'Child',
        code: 'child',
        quantity: 3,
        price: 12.5,
        amount: 37.5,
      },
    ]);
  });

  it('takes a quantity equal to the sum, and refuses one that is not', () => {
    const demographics = [{ demographic: { id: CHILD }, quantity: 2 }];
    expect(priceItem(tour, { quantity: 2, demographics }, 'items.0').quantity).toBe(2);
    expect(() => priceItem(tour, { quantity: 3, demographics }, 'items.0')).toThrow(
      /items\.0\.quantity: must equal the sum/,
    );
  });

  it('refuses unknown and repeated guest types, and zero seats', () => {
    const error = (input: Parameters<typeof priceItem>[1]) => {
      try {
        priceItem(tour, input, 'items.1');
      } catch (e) {
        return (e as DomainError).extra.errors?.[0];
      }
      throw new Error('expected a refusal');
    };
    expect(error({ demographics: [{ demographic: { id: 'f'.repeat(24) }, quantity: 1 }] })).toEqual(
      {
        in: 'body',
        name: 'items.1.demographics.0.demographic.id',
        detail: 'is not a guest type of this experience',
      },
    );
    expect(
      error({
        demographics: [
          { demographic: { id: ADULT }, quantity: 1 },
          { demographic: { id: ADULT }, quantity: 1 },
        ],
      })?.detail,
    ).toBe('is listed twice');
    expect(error({ demographics: [{ demographic: { id: ADULT }, quantity: 0 }] })?.name).toBe(
      'items.1.demographics',
    );
    expect(error({})?.name).toBe('items.1.quantity');
  });

  it('charges an outing once whatever the guest mix', () => {
    const outing = experience(300, 'outing', 'USD', guests);
    const priced = priceItem(
      outing,
      { demographics: [{ demographic: { id: CHILD }, quantity: 4 }] },
      'i',
    );
    expect(priced.amount).toBe(300);
    expect(priced.quantity).toBe(4);
  });
});

describe('priceItem: a departure priceDelta', () => {
  it('adds the delta to every unit price: seats, guest types, an outing', () => {
    const plain = priceItem(experience(50), { quantity: 3 }, 'items.0', 7.5);
    expect([plain.price, plain.amount]).toEqual([57.5, 172.5]);
    const mixed = priceItem(
      experience(50, 'person', 'USD', guests),
      {
        demographics: [
          { demographic: { id: ADULT }, quantity: 2 },
          { demographic: { id: CHILD }, quantity: 1 },
        ],
      },
      'items.0',
      -2.5,
    );
    expect(mixed.lines.map((l) => l.price)).toEqual([47.5, 10]);
    expect(mixed.amount).toBe(105);
    expect(priceItem(experience(300, 'outing'), { quantity: 9 }, 'items.0', 20).amount).toBe(320);
  });

  it('adds it exactly in the minor unit (no binary rounding)', () => {
    const priced = priceItem(experience(0.1, 'person', 'USD'), { quantity: 3 }, 'items.0', 0.2);
    expect(priced.price).toBe(0.3);
    expect(priced.amount).toBe(0.9);
  });
});
