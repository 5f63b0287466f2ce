/**
 * Orders of one item as OCTo bookings, in every state a reseller sees: held, expired
 * (before and after the sweeper), confirmed, redeemed, pending, cancelled; each checked
 * against the specification and against what OCTo's validator asserts of that state
 * (utcExpiresAt only while held or expired, a cancellation only once ended, tickets).
 */
import { describe, expect, it } from 'vitest';
import {
  octoBookingStatus,
  toOctoBooking,
  type BookingSource,
} from '../../../src/modules/octo/index.js';
import { octoResponseProblems } from '../../helpers/octo-spec.js';
import {
  ADULT,
  CHILD,
  NOW,
  boatTour,
  departure,
  orderOf,
  parisSummer,
  record,
  seatsOf,
} from './fixtures.js';

const start = parisSummer('2030-06-01');
const HOLD_END = '2030-05-01T10:30:00.000Z'; // NOW + 30 minutes

const source = (changes: Partial<BookingSource> = {}): BookingSource => ({
  order: orderOf({}),
  record: record(),
  seats: seatsOf([ADULT, ADULT, CHILD]),
  product: boatTour(),
  departure: departure(start, { reserved: 3 }),
  ...changes,
});

const view = (changes: Partial<BookingSource> = {}, now = NOW) =>
  toOctoBooking(source(changes), { now, testMode: false });

describe('booking status', () => {
  const status = (
    itemStatus: number,
    extra: Partial<Parameters<typeof octoBookingStatus>[0]> = {},
  ) =>
    octoBookingStatus(
      { itemStatus, holdExpiresAt: null, expired: false, checkIns: [null], ...extra },
      NOW,
    );

  it('follows the item: held, pending, confirmed in three ways, cancelled', () => {
    expect(status(103, { holdExpiresAt: new Date(HOLD_END) })).toBe('ON_HOLD');
    expect(status(100)).toBe('PENDING');
    expect([status(200), status(202), status(203)]).toEqual([
      'CONFIRMED',
      'CONFIRMED',
      'CONFIRMED',
    ]);
    expect(status(700)).toBe('CANCELLED');
  });

  it('is EXPIRED once the hold deadline passed, swept or not', () => {
    expect(status(103, { holdExpiresAt: NOW })).toBe('EXPIRED');
    expect(status(700, { expired: true })).toBe('EXPIRED');
  });

  it('is REDEEMED once every seat checked in', () => {
    expect(status(200, { checkIns: [NOW, null] })).toBe('CONFIRMED');
    expect(status(200, { checkIns: [NOW, NOW] })).toBe('REDEEMED');
    expect(status(200, { checkIns: [] })).toBe('CONFIRMED');
  });
});

describe('toOctoBooking', () => {
  it('on hold: expires at the deadline, no confirmation, tickets without codes', () => {
    const booking = view({ order: orderOf({ status: 103, holdExpiresAt: HOLD_END }) });
    expect(octoResponseProblems('Bookings_BookingReservation', booking)).toEqual([]);
    expect(booking).toMatchObject({
      status: 'ON_HOLD',
      utcExpiresAt: '2030-05-01T10:30:00Z',
      utcConfirmedAt: null,
      cancellation: null,
      cancellable: true,
    });
    expect(booking.unitItems.map((u) => [u.status, u.ticket!.deliveryOptions])).toEqual([
      ['ON_HOLD', []],
      ['ON_HOLD', []],
      ['ON_HOLD', []],
    ]);
  });

  it('names the order, the departure and the seats as OCTo does', () => {
    const booking = view({ record: record({ confirmedAt: new Date('2030-04-30T08:06:00Z') }) });
    expect(booking).toMatchObject({
      id: '0d0d0d0d0d0d0d0d0d0d0d0d',
      uuid: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      resellerReference: 'KLOOK-4711',
      supplierReference: 'K7QM2XPA',
      productId: boatTour().id,
      optionId: 'DEFAULT',
      availabilityId: '2030-06-01T09:00:00+02:00',
      utcCreatedAt: '2030-04-30T08:00:00Z',
      utcUpdatedAt: '2030-04-30T08:05:00Z',
      utcConfirmedAt: '2030-04-30T08:06:00Z',
      freesale: false,
      deliveryMethods: ['TICKET'],
      voucher: null,
    });
    expect(booking.availability).toMatchObject({ id: booking.availabilityId, vacancies: 9 });
    expect(booking.unitItems.map((u) => [u.unitId, u.supplierReference])).toEqual([
      [ADULT, '000000000000000000000000'],
      [ADULT, '010101010101010101010101'],
      [CHILD, '020202020202020202020202'],
    ]);
  });

  it('confirmed: tickets carry the guest code as QR code and CODE128; no expiry', () => {
    const booking = view();
    expect(octoResponseProblems('Bookings_BookingConfirmation', booking)).toEqual([]);
    expect(booking).toMatchObject({ status: 'CONFIRMED', utcExpiresAt: null, cancellation: null });
    expect(booking.utcConfirmedAt).toBe('2030-04-30T08:00:00Z'); // booked confirmed at once
    expect(booking.unitItems[1]!.ticket).toEqual({
      redemptionMethod: 'DIGITAL',
      utcRedeemedAt: null,
      deliveryOptions: [
        { deliveryFormat: 'QRCODE', deliveryValue: '1'.repeat(32) },
        { deliveryFormat: 'CODE128', deliveryValue: '1'.repeat(32) },
      ],
    });
  });

  it('redeemed: seats checked in show REDEEMED, the booking once all have', () => {
    const at = new Date('2030-06-01T06:55:00Z');
    const later = new Date('2030-06-01T06:58:00Z');
    const partly = view(
      { seats: seatsOf([ADULT, ADULT, CHILD], [at]) },
      new Date('2030-06-01T06:59:00Z'),
    );
    expect(partly.status).toBe('CONFIRMED');
    expect(partly.unitItems.map((u) => [u.status, u.utcRedeemedAt])).toEqual([
      ['REDEEMED', '2030-06-01T06:55:00Z'],
      ['CONFIRMED', null],
      ['CONFIRMED', null],
    ]);
    const all = view({ seats: seatsOf([ADULT, ADULT, CHILD], [at, later, at]) });
    expect([all.status, all.utcRedeemedAt]).toEqual(['REDEEMED', '2030-06-01T06:58:00Z']);
    expect(octoResponseProblems('Bookings_GetBooking', all)).toEqual([]);
  });

  it('cancelled: why and when, no expiry, tickets without codes, no longer cancellable', () => {
    const booking = view({
      order: orderOf({ status: 700 }),
      record: record({
        confirmedAt: new Date('2030-04-30T08:06:00Z'),
        cancellation: { at: new Date('2030-04-30T09:00:00Z'), reason: 'Guest ill', expired: false },
      }),
    });
    expect(octoResponseProblems('Bookings_BookingCancellation', booking)).toEqual([]);
    expect(booking).toMatchObject({
      status: 'CANCELLED',
      utcExpiresAt: null,
      utcConfirmedAt: '2030-04-30T08:06:00Z',
      cancellable: false,
      cancellation: { refund: 'FULL', reason: 'Guest ill', utcCancelledAt: '2030-04-30T09:00:00Z' },
    });
    expect(
      booking.unitItems.every(
        (u) => u.status === 'CANCELLED' && u.ticket!.deliveryOptions.length === 0,
      ),
    ).toBe(true);
  });

  it('expired before the sweeper ran: at the deadline, with an ending OCTo can read', () => {
    const booking = view(
      { order: orderOf({ status: 103, holdExpiresAt: HOLD_END }) },
      new Date(HOLD_END),
    );
    expect(octoResponseProblems('Bookings_GetBooking', booking)).toEqual([]);
    expect(booking).toMatchObject({
      status: 'EXPIRED',
      utcExpiresAt: '2030-05-01T10:30:00Z',
      cancellable: false,
      cancellation: { refund: 'FULL', reason: null, utcCancelledAt: '2030-05-01T10:30:00Z' },
    });
  });

  it('expired by the sweeper (the order no longer has a deadline): when it was released', () => {
    const released = new Date('2030-05-01T10:30:04Z');
    const booking = view({
      order: orderOf({ status: 700, holdExpiresAt: null }),
      record: record({ cancellation: { at: released, reason: null, expired: true } }),
    });
    expect(booking).toMatchObject({
      status: 'EXPIRED',
      utcExpiresAt: '2030-05-01T10:30:04Z',
      utcConfirmedAt: null,
    });
  });

  it('takes the contact the reseller sent over the order’s own fields', () => {
    expect(view().contact).toMatchObject({
      fullName: 'Pat Guest',
      emailAddress: 'pat@example.com',
      locales: [],
    });
    const sent = view({
      record: record({
        contact: {
          firstName: 'John',
          lastName: 'Doe',
          fullName: 'John Doe',
          locales: ['en'],
          notes: null,
        },
      }),
    });
    expect(sent.contact).toEqual({
      fullName: 'John Doe',
      firstName: 'John',
      lastName: 'Doe',
      emailAddress: 'pat@example.com',
      phoneNumber: null,
      locales: ['en'],
      postalCode: null,
      country: null,
      notes: null,
    });
  });

  it('prices each seat as booked and the booking as their sum, net after commission', () => {
    const booking = toOctoBooking(source(), {
      now: NOW,
      testMode: true,
      pricing: { commission: 1500 },
    });
    expect(booking.testMode).toBe(true);
    expect(booking.unitItems.map((u) => [u.pricing!.retail, u.pricing!.net])).toEqual([
      [2500, 2125],
      [2500, 2125],
      [1250, 1063],
    ]);
    expect(booking.pricing).toMatchObject({ retail: 6250, net: 5313, currency: 'EUR' });
    expect(octoResponseProblems('Bookings_GetBookings', [booking])).toEqual([]);
  });

  it('is freesale on a departure without a seat limit', () => {
    expect(view({ departure: departure(start, { capacity: null }) }).freesale).toBe(true);
  });
});
