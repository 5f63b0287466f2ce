/**
 * Experiences as OCTo products: what the specification requires, one DEFAULT option, the
 * guest types as units with their OCTo types, start times, and prices in the minor unit
 * with a reseller's net only under octo/pricing.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_UNIT_ID,
  commissionBps,
  toOctoProduct,
  toOctoSupplier,
  unitTypeOf,
} from '../../../src/modules/octo/index.js';
import { octoObjectProblems, octoResponseProblems } from '../../helpers/octo-spec.js';
import { ADULT, CHILD, boatTour } from './fixtures.js';

describe('toOctoProduct', () => {
  it('conforms to the specification, with and without octo/pricing', () => {
    expect(octoResponseProblems('Products_GetProduct', toOctoProduct(boatTour()))).toEqual([]);
    const priced = toOctoProduct(boatTour(), { pricing: { commission: 2000 } });
    expect(octoResponseProblems('Products_GetProducts', [priced])).toEqual([]);
  });

  it('has one default option whose units are the guest types, in order', () => {
    const { options } = toOctoProduct(boatTour());
    expect(options.map((o) => [o.id, o.default])).toEqual([['DEFAULT', true]]);
    expect(options[0]!.units.map((u) => [u.id, u.internalName, u.reference, u.type])).toEqual([
      [ADULT, 'Adult', 'adult', 'ADULT'],
      [CHILD, 'Child (4-11)', 'kid', 'CHILD'],
    ]);
  });

  it('offers one ADULT unit at the experience price when it has no guest types', () => {
    const product = toOctoProduct(boatTour({ demographics: [], price: 30 }), {
      pricing: { commission: null },
    });
    const units = product.options[0]!.units;
    expect(units.map((u) => [u.id, u.type])).toEqual([[DEFAULT_UNIT_ID, 'ADULT']]);
    expect(units[0]!.pricingFrom).toEqual([
      {
        original: 3000,
        retail: 3000,
        net: null,
        currency: 'EUR',
        currencyPrecision: 2,
        includedTaxes: [],
      },
    ]);
  });

  it('lists every departure time of the available schedules as HH:MM', () => {
    const product = toOctoProduct(
      boatTour({
        schedules: [
          {
            id: 'a'.repeat(24),
            type: 'available',
            repeat: 'weekly',
            days: [1],
            times: [1400, 905],
          },
          {
            id: 'b'.repeat(24),
            type: 'available',
            repeat: 'weekly',
            days: [2],
            times: [905, 2130],
          },
          { id: 'c'.repeat(24), type: 'unavailable', repeat: 'weekly', days: [3], times: [700] },
        ],
      }),
    );
    expect(product.options[0]!.availabilityLocalStartTimes).toEqual(['09:05', '14:00', '21:30']);
  });

  it('prices per unit in the minor unit, net after the commission, under octo/pricing only', () => {
    expect(toOctoProduct(boatTour()).options[0]!.units[1]!.pricingFrom).toBeUndefined();
    const product = toOctoProduct(boatTour(), { pricing: { commission: commissionBps(12.5)! } });
    expect([product.defaultCurrency, product.availableCurrencies, product.pricingPer]).toEqual([
      'EUR',
      ['EUR'],
      'UNIT',
    ]);
    // 12.50 EUR less 12.5 %: 10.9375, half up to 10.94.
    expect(product.options[0]!.units[1]!.pricingFrom![0]).toMatchObject({
      retail: 1250,
      net: 1094,
    });
  });

  it('prices an outing per booking on the option', () => {
    const product = toOctoProduct(boatTour({ priceType: 'outing', price: 300, currency: 'JPY' }), {
      pricing: { commission: 1000 },
    });
    expect(product.pricingPer).toBe('BOOKING');
    expect(product.options[0]!.pricingFrom).toEqual([
      {
        original: 300,
        retail: 300,
        net: 270,
        currency: 'JPY',
        currencyPrecision: 0,
        includedTaxes: [],
      },
    ]);
    expect(product.options[0]!.units.every((u) => u.pricingFrom === undefined)).toBe(true);
  });

  it('allows freesale only for an experience without a seat limit', () => {
    expect(toOctoProduct(boatTour()).allowFreesale).toBe(false);
    const open = boatTour({ group: { orderMin: null, orderMax: null, outingMax: null } });
    expect(toOctoProduct(open).allowFreesale).toBe(true);
    expect(toOctoProduct(open).options[0]!.restrictions).toEqual({ minUnits: 1, maxUnits: null });
  });
});

describe('unitTypeOf', () => {
  it.each([
    ['adult', 'Adult', 'ADULT'],
    ['kid', 'Kids under 12', 'CHILD'],
    ['senior_65', 'Senior 65+', 'SENIOR'],
    ['u3', 'Baby (under 3)', 'INFANT'],
    ['conc', 'Student with card', 'STUDENT'],
    ['fam', 'Family pass', 'FAMILY'],
    ['teen', 'Teenager', 'YOUTH'],
    ['vip', 'VIP deck', 'OTHER'],
  ] as const)('%s / %s is %s', (code, label, type) => {
    expect(unitTypeOf(code, label)).toBe(type);
  });
});

describe('commissionBps', () => {
  it('takes 0-100 with two decimals at most', () => {
    expect([
      commissionBps(0),
      commissionBps(12.5),
      commissionBps(33.33),
      commissionBps(100),
    ]).toEqual([0, 1250, 3333, 10000]);
    expect([commissionBps(-1), commissionBps(100.01), commissionBps(1.234)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('toOctoSupplier', () => {
  it('conforms, with no contact details a seller does not publish', () => {
    const supplier = toOctoSupplier(
      { id: 'b'.repeat(24), name: 'Seine Boats' },
      'https://book.example.com/octo',
    );
    expect(octoObjectProblems('Supplier', supplier)).toEqual([]);
    expect(supplier.contact).toEqual({
      website: null,
      email: null,
      telephone: null,
      address: null,
    });
  });
});
