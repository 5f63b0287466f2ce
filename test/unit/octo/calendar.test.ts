/**
 * The availability calendar: one day per local date of the range, each showing its
 * roomiest bookable departure, SOLD_OUT or CLOSED when none is bookable, the day's lowest
 * prices; checked against the specification.
 */
import { describe, expect, it } from 'vitest';
import { datesFrom, toOctoCalendar, unitsAskedOf } from '../../../src/modules/octo/index.js';
import { octoResponseProblems } from '../../helpers/octo-spec.js';
import { ADULT, NOW, boatTour, departure, parisSummer } from './fixtures.js';

const product = boatTour();

describe('toOctoCalendar', () => {
  it('answers one object per local day, days without departures CLOSED', () => {
    const days = toOctoCalendar(
      product,
      [departure(parisSummer('2030-06-02'))],
      '2030-06-01',
      '2030-06-03',
      {
        now: NOW,
      },
    );
    expect(days.map((d) => [d.localDate, d.status, d.available, d.vacancies, d.capacity])).toEqual([
      ['2030-06-01', 'CLOSED', false, 0, 0],
      ['2030-06-02', 'AVAILABLE', true, 12, 12],
      ['2030-06-03', 'CLOSED', false, 0, 0],
    ]);
    expect(octoResponseProblems('Availabilities_AvailabilityCalendar', days)).toEqual([]);
  });

  it('files a departure under its local day, not its UTC day', () => {
    // 00:30 in Paris on 2 June is 22:30 UTC on 1 June.
    const late = departure(new Date('2030-06-01T22:30:00Z'));
    const days = toOctoCalendar(product, [late], '2030-06-01', '2030-06-02', { now: NOW });
    expect(days.map((d) => d.status)).toEqual(['CLOSED', 'AVAILABLE']);
  });

  it("shows the day's roomiest bookable departure", () => {
    const day = [
      departure(parisSummer('2030-06-03', '09:00'), { reserved: 12 }),
      departure(parisSummer('2030-06-03', '14:00'), { reserved: 8 }),
      departure(parisSummer('2030-06-03', '17:30'), { reserved: 2, capacity: 20 }),
    ];
    const [view] = toOctoCalendar(product, day, '2030-06-03', '2030-06-03', { now: NOW });
    expect(view).toMatchObject({
      status: 'AVAILABLE',
      available: true,
      vacancies: 18,
      capacity: 20,
    });
    const unlimited = [...day, departure(parisSummer('2030-06-03', '20:00'), { capacity: null })];
    expect(
      toOctoCalendar(product, unlimited, '2030-06-03', '2030-06-03', { now: NOW })[0],
    ).toMatchObject({
      status: 'FREESALE',
      vacancies: null,
    });
  });

  it('is LIMITED when the best departure is, SOLD_OUT when all are full, CLOSED when none sells', () => {
    const one = (seats: Parameters<typeof departure>[1]) =>
      toOctoCalendar(
        product,
        [departure(parisSummer('2030-06-03'), seats)],
        '2030-06-03',
        '2030-06-03',
        {
          now: NOW,
        },
      )[0];
    expect(one({ reserved: 10 })).toMatchObject({ status: 'LIMITED', vacancies: 2 });
    expect(one({ reserved: 12 })).toMatchObject({
      status: 'SOLD_OUT',
      available: false,
      vacancies: 0,
      capacity: 12,
    });
    expect(one({ closed: true })).toMatchObject({ status: 'CLOSED', available: false });
    const mixed = [
      departure(parisSummer('2030-06-03', '09:00'), { closed: true }),
      departure(parisSummer('2030-06-03', '14:00'), { reserved: 12 }),
    ];
    expect(
      toOctoCalendar(product, mixed, '2030-06-03', '2030-06-03', { now: NOW })[0]!.status,
    ).toBe('SOLD_OUT');
  });

  it('is not available for units that fit no departure of the day', () => {
    const day = [departure(parisSummer('2030-06-03'), { reserved: 9 })];
    const units = (n: number) => unitsAskedOf(product, [{ id: ADULT, quantity: n }]);
    const view = (n: number) =>
      toOctoCalendar(product, day, '2030-06-03', '2030-06-03', { now: NOW, units: units(n) })[0]!;
    expect(view(3).available).toBe(true);
    expect(view(4)).toMatchObject({ available: false, status: 'CLOSED' });
  });

  it("gives the day's lowest prices, and the plain ones on a day without departures", () => {
    const days = toOctoCalendar(
      product,
      [
        departure(parisSummer('2030-06-01', '09:00')),
        departure(parisSummer('2030-06-01', '17:30')), // weekend supplement
        departure(parisSummer('2030-06-02', '17:30')),
      ],
      '2030-06-01',
      '2030-06-04',
      { now: NOW, pricing: { commission: null } },
    );
    expect(days.map((d) => d.unitPricingFrom!.map((p) => p.retail))).toEqual([
      [2500, 1250],
      [2750, 1500],
      [2500, 1250],
      [2500, 1250],
    ]);
    expect(octoResponseProblems('Availabilities_AvailabilityCalendar', days)).toEqual([]);
  });

  it('covers a year in 365 or 366 objects', () => {
    expect(datesFrom('2031-01-01', '2031-12-31')).toHaveLength(365);
    expect(datesFrom('2032-01-01', '2032-12-31')).toHaveLength(366);
    expect(toOctoCalendar(product, [], '2030-06-01', '2031-05-31', { now: NOW })).toHaveLength(365);
  });
});
