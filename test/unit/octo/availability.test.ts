/**
 * Departures as OCTo availability: ids that exist before an event does and survive a
 * daylight-saving night, statuses and vacancies, the units a request asks for, prices at a
 * departure (its schedule's supplement included), all checked against the specification.
 */
import { describe, expect, it } from 'vitest';
import {
  availabilityIdOf,
  isScheduledStart,
  startOfAvailabilityId,
  toOctoAvailability,
  unitsAskedOf,
} from '../../../src/modules/octo/index.js';
import { octoResponseProblems } from '../../helpers/octo-spec.js';
import { ADULT, CHILD, NOW, boatTour, departure, parisSummer } from './fixtures.js';

const product = boatTour();
const at9 = parisSummer('2030-06-03'); // a Monday

describe('availability ids', () => {
  it('are the local start with its offset, and read back to the same instant', () => {
    const id = availabilityIdOf(product, at9);
    expect(id).toBe('2030-06-03T09:00:00+02:00');
    expect(startOfAvailabilityId(product, id)).toEqual(at9);
  });

  it('name the second 02:30 of a fall-back night, as bookings do, and never the first', () => {
    // Paris leaves summer time on 27 October 2030: 02:30 happens at +02:00, then at +01:00.
    const first = new Date('2030-10-27T00:30:00Z');
    const second = new Date('2030-10-27T01:30:00Z');
    const ids = [availabilityIdOf(product, first), availabilityIdOf(product, second)];
    expect(ids).toEqual(['2030-10-27T02:30:00+02:00', '2030-10-27T02:30:00+01:00']);
    // Departures are named by local date and HHMM, which means the second: no departure
    // can be made at the first (POST /api/events refuses it), so its id names none.
    expect(ids.map((id) => startOfAvailabilityId(product, id))).toEqual([undefined, second]);
  });

  it('are refused in any form we do not issue', () => {
    for (const id of [
      'invalidAvailabilityId',
      '2030-06-03T09:00:00', // no offset
      '2030-06-03T07:00:00Z', // the right instant, another zone's form
      '2030-06-03T09:00+02:00', // no seconds
      '2030-06-03T09:00:00.000+02:00',
      '2030-02-30T09:00:00+01:00',
      '2030-06-03T09:00:00+01:00', // an offset Paris does not have in June
      '2030-06-03T09:00:30+02:00', // not a whole minute
    ])
      expect(startOfAvailabilityId(product, id), id).toBeUndefined();
  });

  it('name scheduled departures (an event opened by hand is the events module’s answer)', () => {
    expect(isScheduledStart(product, at9)).toBe(true);
    expect(isScheduledStart(product, parisSummer('2030-06-03', '10:00'))).toBe(false);
    expect(isScheduledStart(product, parisSummer('2030-06-01', '17:30'))).toBe(true); // Saturday
    expect(isScheduledStart(product, parisSummer('2030-06-03', '17:30'))).toBe(false);
  });
});

const statusOf = (seats: Parameters<typeof departure>[1], now = NOW) =>
  toOctoAvailability(product, departure(at9, seats), { now });

describe('status, vacancies and capacity', () => {
  it('AVAILABLE with half the seats or more left; LIMITED below half', () => {
    expect(statusOf({ reserved: 0 })).toMatchObject({
      status: 'AVAILABLE',
      available: true,
      vacancies: 12,
      capacity: 12,
    });
    expect(statusOf({ reserved: 6 })).toMatchObject({ status: 'AVAILABLE', vacancies: 6 });
    expect(statusOf({ reserved: 7 })).toMatchObject({
      status: 'LIMITED',
      available: true,
      vacancies: 5,
    });
  });

  it('SOLD_OUT with no seat left (an event over capacity shows 0, not less)', () => {
    expect(statusOf({ reserved: 12 })).toMatchObject({
      status: 'SOLD_OUT',
      available: false,
      vacancies: 0,
    });
    expect(statusOf({ capacity: 3, reserved: 5 })).toMatchObject({
      status: 'SOLD_OUT',
      vacancies: 0,
      capacity: 3,
    });
  });

  it('FREESALE without a seat limit', () => {
    expect(statusOf({ capacity: null, reserved: 40 })).toMatchObject({
      status: 'FREESALE',
      available: true,
      vacancies: null,
      capacity: null,
    });
  });

  it('CLOSED when closed by hand, or once it starts', () => {
    expect(statusOf({ closed: true })).toMatchObject({
      status: 'CLOSED',
      available: false,
      vacancies: 0,
    });
    expect(statusOf({}, at9)).toMatchObject({ status: 'CLOSED', available: false });
    expect(statusOf({}, new Date(at9.getTime() - 1000))).toMatchObject({ status: 'AVAILABLE' });
  });

  it('is available for the units asked only when they fit, and within the group size', () => {
    const asked = (adults: number) => ({
      now: NOW,
      units: unitsAskedOf(product, [{ id: ADULT, quantity: adults }])!,
    });
    const few = departure(at9, { reserved: 9 });
    expect(toOctoAvailability(product, few, asked(3))).toMatchObject({
      status: 'LIMITED',
      available: true,
    });
    expect(toOctoAvailability(product, few, asked(4))).toMatchObject({
      status: 'LIMITED',
      available: false,
    });
    // orderMax is 10: eleven seats never fit in one booking.
    const roomy = departure(at9, { capacity: 100 });
    expect(toOctoAvailability(product, roomy, asked(11)).available).toBe(false);
    expect(toOctoAvailability(product, roomy, asked(11)).maxUnits).toBe(10);
  });

  it('ends after the duration, in local time, with its cutoff at the start in UTC', () => {
    expect(statusOf({})).toMatchObject({
      id: '2030-06-03T09:00:00+02:00',
      localDateTimeStart: '2030-06-03T09:00:00+02:00',
      localDateTimeEnd: '2030-06-03T10:30:00+02:00',
      utcCutoffAt: '2030-06-03T07:00:00Z',
      allDay: false,
      openingHours: [],
    });
  });

  it('conforms to the specification in every state', () => {
    const all = [
      statusOf({}),
      statusOf({ reserved: 7 }),
      statusOf({ reserved: 12 }),
      statusOf({ capacity: null }),
      statusOf({ closed: true }),
    ];
    expect(octoResponseProblems('Availabilities_AvailabilityCheck', all)).toEqual([]);
  });
});

describe('prices at a departure (octo/pricing)', () => {
  const pricing = { commission: 2000 };

  it('gives each unit its price, and the units asked their total', () => {
    const view = toOctoAvailability(product, departure(at9), {
      now: NOW,
      pricing,
      units: unitsAskedOf(product, [
        { id: ADULT, quantity: 2 },
        { id: CHILD, quantity: 1 },
      ]),
    });
    expect(view.unitPricing!.map((p) => [p.unitId, p.retail, p.net])).toEqual([
      [ADULT, 2500, 2000],
      [CHILD, 1250, 1000],
    ]);
    expect(view.pricing).toMatchObject({
      retail: 6250,
      net: 5000,
      currency: 'EUR',
      currencyPrecision: 2,
    });
    expect(octoResponseProblems('Availabilities_AvailabilityCheck', [view])).toEqual([]);
  });

  it("adds the departure's schedule supplement", () => {
    const saturday = parisSummer('2030-06-01', '17:30');
    const view = toOctoAvailability(product, departure(saturday), { now: NOW, pricing });
    expect(view.unitPricing!.map((p) => p.retail)).toEqual([2750, 1500]);
    expect(view.pricing).toBeUndefined(); // per-unit pricing, no units asked
  });

  it('prices an outing once, whatever the units', () => {
    const outing = boatTour({ priceType: 'outing', price: 300 });
    const view = toOctoAvailability(outing, departure(at9), {
      now: NOW,
      pricing: { commission: null },
      units: unitsAskedOf(outing, [{ id: ADULT, quantity: 4 }]),
    });
    expect(view.unitPricing).toBeUndefined();
    expect(view.pricing).toMatchObject({ retail: 30000, net: null });
  });

  it('leaves prices out unless octo/pricing is asked for', () => {
    const view = toOctoAvailability(product, departure(at9), { now: NOW });
    expect([view.unitPricing, view.pricing]).toEqual([undefined, undefined]);
  });
});
