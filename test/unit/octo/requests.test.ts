/**
 * What an OCTo request asks, and the OCTo error each wrong request gets: the combinations
 * of dates and ids, ranges, unit items; the error bodies (spec-conforming, all HTTP 400);
 * the Octo-Capabilities header.
 */
import { describe, expect, it } from 'vitest';
import {
  OCTO_ERROR_CODES,
  OctoProblem,
  availabilityQueryOf,
  bookingsQueryOf,
  calendarRangeOf,
  capabilitiesHeader,
  capabilitiesOffered,
  checkOption,
  holdMinutesOf,
  octoError,
  parseCapabilities,
  seatsAskedOf,
  unitsAskedOf,
} from '../../../src/modules/octo/index.js';
import { octoErrorProblems, octoResponseProblems } from '../../helpers/octo-spec.js';
import { ADULT, CHILD, boatTour } from './fixtures.js';

const product = boatTour();
const base = { productId: product.id, optionId: 'DEFAULT' };

/** The OCTo error a call throws: [code, the extra field it names]. */
function refusal(call: () => unknown): [string, Record<string, unknown>] {
  try {
    call();
  } catch (error) {
    if (!(error instanceof OctoProblem)) throw error;
    const { error: code, errorMessage: _message, ...named } = error.reply.body;
    return [code, named];
  }
  throw new Error('not refused');
}

describe('availability check', () => {
  it('takes one local date, a range, or availability ids', () => {
    expect(availabilityQueryOf({ ...base, localDate: '2030-06-01' })).toEqual({
      dates: { start: '2030-06-01', end: '2030-06-01' },
    });
    expect(
      availabilityQueryOf({ ...base, localDateStart: '2030-06-01', localDateEnd: '2030-06-30' }),
    ).toEqual({
      dates: { start: '2030-06-01', end: '2030-06-30' },
    });
    expect(availabilityQueryOf({ ...base, availabilityIds: ['a', 'b', 'a'] })).toEqual({
      ids: ['a', 'b'],
    });
  });

  it('is BAD_REQUEST for none, two ways at once, half a range, a reversed or too long one', () => {
    const bad = [
      { ...base },
      { ...base, localDateStart: '2030-06-01', localDateEnd: '2030-06-30', availabilityIds: ['x'] },
      { ...base, localDate: '2030-06-01', availabilityIds: ['x'] },
      { ...base, localDateStart: '2030-06-01' },
      { ...base, localDateStart: '2030-06-02', localDateEnd: '2030-06-01' },
      { ...base, localDateStart: '2030-01-01', localDateEnd: '2031-01-02' },
    ];
    for (const body of bad)
      expect(refusal(() => availabilityQueryOf(body))[0], JSON.stringify(body)).toBe('BAD_REQUEST');
  });

  it('knows only the DEFAULT option', () => {
    expect(() => checkOption('DEFAULT')).not.toThrow();
    expect(refusal(() => checkOption('invalidOptionId'))).toEqual([
      'INVALID_OPTION_ID',
      { optionId: 'invalidOptionId' },
    ]);
  });

  it('names an unknown unit', () => {
    expect(
      unitsAskedOf(product, [{ id: CHILD, quantity: 2 }])!.map((u) => [u.unit.id, u.quantity]),
    ).toEqual([[CHILD, 2]]);
    expect(refusal(() => unitsAskedOf(product, [{ id: 'senior', quantity: 1 }]))).toEqual([
      'INVALID_UNIT_ID',
      { unitId: 'senior' },
    ]);
  });
});

describe('calendar range', () => {
  it('needs both ends, a year at most (366 days)', () => {
    expect(
      calendarRangeOf({ ...base, localDateStart: '2032-01-01', localDateEnd: '2032-12-31' }),
    ).toEqual({
      start: '2032-01-01',
      end: '2032-12-31',
    });
    expect(refusal(() => calendarRangeOf({ ...base, localDateEnd: '2030-06-30' }))[0]).toBe(
      'BAD_REQUEST',
    );
    expect(
      refusal(() =>
        calendarRangeOf({ ...base, localDateStart: '2031-01-01', localDateEnd: '2032-01-02' }),
      )[0],
    ).toBe('BAD_REQUEST');
  });
});

describe('listing bookings', () => {
  it('needs a reference or local dates', () => {
    expect(bookingsQueryOf({ resellerReference: 'R' })).toEqual({ resellerReference: 'R' });
    expect(bookingsQueryOf({ supplierReference: 'S', resellerReference: 'R' })).toEqual({
      supplierReference: 'S',
    });
    expect(bookingsQueryOf({ localDate: '2030-06-01' })).toEqual({
      dates: { start: '2030-06-01', end: '2030-06-01' },
    });
    expect(refusal(() => bookingsQueryOf({}))[0]).toBe('BAD_REQUEST');
    expect(refusal(() => bookingsQueryOf({ localDateStart: '2030-06-01' }))[0]).toBe('BAD_REQUEST');
  });
});

describe('unit items of a booking', () => {
  it('become seats and quantities per guest type, in the product’s unit order', () => {
    const { seats, quantities } = seatsAskedOf(product, [
      { unitId: CHILD, uuid: '3B1BC2EE-3155-4738-9471-F49842A07327' },
      { unitId: ADULT, resellerReference: 'seat-1' },
      { unitId: ADULT },
    ]);
    expect(quantities).toEqual([
      { demographicId: ADULT, quantity: 2 },
      { demographicId: CHILD, quantity: 1 },
    ]);
    expect(seats.map((s) => [s.unit.id, s.uuid, s.resellerReference])).toEqual([
      [CHILD, '3b1bc2ee-3155-4738-9471-f49842a07327', null],
      [ADULT, null, 'seat-1'],
      [ADULT, null, null],
    ]);
  });

  it('the default unit books the experience’s own price (no guest type)', () => {
    const plain = boatTour({ demographics: [] });
    expect(seatsAskedOf(plain, [{ unitId: 'adult' }, { unitId: 'adult' }]).quantities).toEqual([
      { demographicId: null, quantity: 2 },
    ]);
  });

  it('are UNPROCESSABLE_ENTITY when missing or empty, INVALID_UNIT_ID when unknown', () => {
    expect(refusal(() => seatsAskedOf(product, undefined))[0]).toBe('UNPROCESSABLE_ENTITY');
    expect(refusal(() => seatsAskedOf(product, []))[0]).toBe('UNPROCESSABLE_ENTITY');
    expect(
      refusal(() => seatsAskedOf(product, [{ unitId: ADULT }, { unitId: 'invalidUnitId' }])),
    ).toEqual(['INVALID_UNIT_ID', { unitId: 'invalidUnitId' }]);
  });

  it('may not name one uuid twice', () => {
    const uuid = '3b1bc2ee-3155-4738-9471-f49842a07327';
    expect(
      refusal(() =>
        seatsAskedOf(product, [
          { unitId: ADULT, uuid },
          { unitId: CHILD, uuid: uuid.toUpperCase() },
        ]),
      )[0],
    ).toBe('BAD_REQUEST');
  });

  it('hold 30 minutes unless asked otherwise', () => {
    expect([holdMinutesOf(undefined), holdMinutesOf(90)]).toEqual([30, 90]);
  });
});

describe('OCTo errors', () => {
  it('are 400 with a spec-conforming body for every code but INTERNAL_SERVER_ERROR', () => {
    for (const code of OCTO_ERROR_CODES) {
      const reply =
        code === 'INVALID_PRODUCT_ID' ||
        code === 'INVALID_OPTION_ID' ||
        code === 'INVALID_UNIT_ID' ||
        code === 'INVALID_AVAILABILITY_ID' ||
        code === 'INVALID_BOOKING_UUID'
          ? octoError(code, 'sent-value')
          : octoError(code);
      expect(reply.status, code).toBe(code === 'INTERNAL_SERVER_ERROR' ? 500 : 400);
      expect(octoErrorProblems(code, reply.body), code).toEqual([]);
    }
  });

  it('name the value refused, and add a detail to the standard message', () => {
    expect(octoError('INVALID_AVAILABILITY_ID', '2030-06-01T09:00:00+02:00').body).toEqual({
      error: 'INVALID_AVAILABILITY_ID',
      errorMessage: 'The availabilityId was missing or invalid',
      availabilityId: '2030-06-01T09:00:00+02:00',
    });
    expect(octoError('UNPROCESSABLE_ENTITY', '2 seats left').body.errorMessage).toMatch(
      /: 2 seats left$/,
    );
  });
});

describe('Octo-Capabilities', () => {
  it('grants what we offer of what is asked, in our order, ignoring the rest', () => {
    expect(parseCapabilities(undefined)).toEqual([]);
    expect(parseCapabilities('')).toEqual([]);
    expect(parseCapabilities('octo/content, OCTO/Webhooks ,octo/pricing,octo/pricing')).toEqual([
      'octo/pricing',
      'octo/webhooks',
    ]);
    expect(parseCapabilities(['octo/webhooks', 'octo/pickups'])).toEqual(['octo/webhooks']);
    expect(capabilitiesHeader(parseCapabilities('octo/pricing,octo/webhooks'))).toBe(
      'octo/pricing, octo/webhooks',
    );
  });

  it('lists what we offer as the specification writes capabilities', () => {
    expect(octoResponseProblems('Capabilities_get', capabilitiesOffered())).toEqual([]);
  });
});
