/**
 * The bound on an availability check's answer (check-bound.ts): how many departures fit for
 * the prices each carries, the schedules' count before anything is read, the refusal; and
 * the calendar's prices, now worked out once a day at the day's lowest priceDelta, equal to
 * the lowest of its departures' own.
 */
import { describe, expect, it } from 'vitest';
import {
  checkAnswerSize,
  departuresFitting,
  MAX_CHECK_DEPARTURES,
  scheduledBetween,
} from '../../../src/modules/octo/check-bound.js';
import { pricesPerAvailability } from '../../../src/modules/octo/availability.mapping.js';
import {
  MAX_AVAILABILITY_IDS,
  OctoProblem,
  toOctoAvailability,
  toOctoCalendar,
  unitsAskedOf,
  type Product,
} from '../../../src/modules/octo/index.js';
import { ADULT, CHILD, NOW, boatTour, departure, parisSummer } from './fixtures.js';

const product = boatTour();

describe('the check bound', () => {
  it('answers fewer departures the more prices each carries, half a departure a price', () => {
    expect(departuresFitting(0)).toBe(MAX_CHECK_DEPARTURES);
    expect(departuresFitting(1)).toBe(4000);
    expect(departuresFitting(20)).toBe(545);
    expect(departuresFitting(21)).toBe(521);
    // The most availability ids a body names fit whatever the prices (20 units and the booking's).
    expect(MAX_AVAILABILITY_IDS).toBeLessThanOrEqual(departuresFitting(21));
  });

  it('counts the prices of an availability object', () => {
    const pricing = { commission: null };
    expect(pricesPerAvailability(product, {})).toBe(0);
    expect(pricesPerAvailability(product, { pricing })).toBe(2);
    const units = unitsAskedOf(product, [{ id: ADULT, quantity: 2 }]);
    expect(pricesPerAvailability(product, { pricing, units })).toBe(3);
    expect(pricesPerAvailability(boatTour({ priceType: 'outing' }), { pricing })).toBe(1);
  });

  it("counts the schedules' departures day by day only when their upper bound does not fit", () => {
    // Two a day, and a third at weekends: 7 x 3 = 21 at most, 16 in a week.
    expect(scheduledBetween(product.schedules, '2030-06-03', '2030-06-09', 21)).toBe(21);
    expect(scheduledBetween(product.schedules, '2030-06-03', '2030-06-09', 20)).toBe(16);
  });

  it('refuses past the bound with BAD_REQUEST naming it', () => {
    expect(() => checkAnswerSize(545, 20)).not.toThrow();
    const refusal = (count: number, prices: number) => {
      try {
        checkAnswerSize(count, prices);
      } catch (e) {
        if (e instanceof OctoProblem) return e.reply.body;
      }
      throw new Error('not refused');
    };
    expect(refusal(546, 20)).toMatchObject({ error: 'BAD_REQUEST' });
    expect(refusal(546, 20).errorMessage).toMatch(
      /departs 546 times.*at most 545 of its departures with octo\/pricing \(6000.*ask for fewer dates/,
    );
    expect(refusal(6001, 0).errorMessage).toMatch(/at most 6000 departures: ask for fewer dates/);
  });
});

describe("the calendar's prices", () => {
  it("are the lowest of the day's departures' own, deltas up and down", () => {
    const discounted: Product = boatTour({
      schedules: [
        ...product.schedules,
        // Early birds on Mondays pay 3 less.
        {
          id: 's3s3s3s3s3s3s3s3s3s3s3s3',
          type: 'available',
          repeat: 'weekly',
          days: [1],
          times: [730],
          priceDelta: -3,
        },
      ],
    });
    const days = ['2030-06-01', '2030-06-02', '2030-06-03', '2030-06-04'];
    const departures = days.flatMap((date) =>
      ['07:30', '09:00', '14:00', '17:30'].map((hhmm) => departure(parisSummer(date, hhmm))),
    );
    const units = unitsAskedOf(discounted, [
      { id: ADULT, quantity: 2 },
      { id: CHILD, quantity: 1 },
    ]);
    const options = { now: NOW, pricing: { commission: 1250 }, units };
    const calendar = toOctoCalendar(discounted, departures, days[0]!, days[3]!, options);
    const retail = (p: { retail: number }) => p.retail;
    for (const [i, day] of calendar.entries()) {
      const own = departures
        .filter((d) => d.start.toISOString().startsWith(days[i]!))
        .map((d) => toOctoAvailability(discounted, d, options));
      const lowest = (prices: { retail: number }[]) =>
        prices.reduce((low, p) => (p.retail < low.retail ? p : low));
      expect(day.pricingFrom).toEqual(lowest(own.map((a) => a.pricing!)));
      expect(day.unitPricingFrom).toEqual(
        [0, 1].map((u) => lowest(own.map((a) => a.unitPricing![u]!))),
      );
    }
    // Monday's early bird, Saturday's supplement not the lowest.
    expect(calendar.map((d) => d.unitPricingFrom!.map(retail))).toEqual([
      [2500, 1250],
      [2500, 1250],
      [2200, 950],
      [2500, 1250],
    ]);
  });
});
