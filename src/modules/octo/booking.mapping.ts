/**
 * An order of one item as an OCTo booking (docs/octo.md, "Bookings"): its id the order's,
 * its `uuid` the reseller's, `supplierReference` the order's short code; its departure as
 * the availability; one unit item per seat (a guest, issue 29) with the guest's own ticket.
 * Tickets carry the guest's ticket code as a QR code and a CODE128 barcode once the booking
 * is confirmed; before (on hold) and after it ends (cancelled, expired) they carry none, so a
 * reseller never hands out a code that will not be honoured.
 */
import { minorDigits, toMinor } from '../../domain/money.js';
import type { OrderItemView, OrderView } from '../orders/index.js';
import { toOctoAvailability } from './availability.mapping.js';
import { isCancellable, octoBookingStatus, unitItemStatus } from './booking-status.js';
import type { Departure, Product } from './departures.js';
import type {
  BookingStatus,
  OctoBookingView,
  OctoContactView,
  OctoTicketView,
  OctoUnitItemView,
} from './octo.schemas.js';
import { octoPricing, sumPricing, type CommissionBps } from './pricing.js';
import { OPTION_ID } from './product.mapping.js';
import { utc, utcOrNull } from './time.js';
import { unitIdOf } from './units.js';

/** A contact as a reseller sent it: any of OCTo's fields. */
export type ContactInput = Partial<OctoContactView>;

/** What an OCTo booking records beside its order (docs/octo.md, "How bookings are made"). */
export interface OctoBookingRecord {
  uuid: string;
  resellerReference: string | null;
  /** The booking's contact as the reseller last sent it; null: none sent. */
  contact: ContactInput | null;
  confirmedAt: Date | null;
  /** Set once the item is canceled: when, the reason given, and whether the hold expired. */
  cancellation: { at: Date; reason: string | null; expired: boolean } | null;
}

/** One seat: a guest of the item (issue 29). */
export interface OctoSeat {
  /** The guest's id: the unit item's supplier reference. */
  id: string;
  /** The reseller's unit item uuid, or one we chose. */
  uuid: string;
  resellerReference: string | null;
  demographicId: string | null;
  ticketCode: string;
  checkedInAt: Date | null;
  contact: ContactInput | null;
}

export interface BookingSource {
  /** An order of one item. */
  order: OrderView;
  record: OctoBookingRecord;
  /** The item's seats to show: its live guests, or those it had when it ended. */
  seats: readonly OctoSeat[];
  product: Product;
  departure: Departure;
}

export interface BookingOptions {
  now: Date;
  /** The sandbox (BOOKING_ENV=sandbox): OCTo's `testMode`. */
  testMode: boolean;
  pricing?: { commission: CommissionBps };
}

const LIVE_TICKETS: readonly BookingStatus[] = ['CONFIRMED', 'REDEEMED'];

/** Every OCTo contact field, null where nothing was given. */
export function toOctoContact(contact: ContactInput | null): OctoContactView {
  return {
    fullName: contact?.fullName ?? null,
    firstName: contact?.firstName ?? null,
    lastName: contact?.lastName ?? null,
    emailAddress: contact?.emailAddress ?? null,
    phoneNumber: contact?.phoneNumber ?? null,
    locales: contact?.locales ?? [],
    postalCode: contact?.postalCode ?? null,
    country: contact?.country ?? null,
    notes: contact?.notes ?? null,
  };
}

/** The order's own customer fields as a contact, for what the reseller did not send. */
const orderContact = (order: OrderView): ContactInput => ({
  fullName: order.customerName === '' ? null : order.customerName,
  emailAddress: order.customerEmail,
  phoneNumber: order.phone,
});

function ticketOf(seat: OctoSeat, status: BookingStatus): OctoTicketView {
  const live = LIVE_TICKETS.includes(status);
  return {
    redemptionMethod: 'DIGITAL',
    utcRedeemedAt: live ? utcOrNull(seat.checkedInAt) : null,
    deliveryOptions: live
      ? [
          { deliveryFormat: 'QRCODE', deliveryValue: seat.ticketCode },
          { deliveryFormat: 'CODE128', deliveryValue: seat.ticketCode },
        ]
      : [],
  };
}

/** One seat's price as booked: its guest type's line, or the item's own price. */
function seatPrice(item: OrderItemView, demographicId: string | null, currency: string): bigint {
  const line = item.demographics.find((d) => d.demographic.id === demographicId);
  return toMinor(line?.price ?? item.price, minorDigits(currency));
}

export function toOctoBooking(source: BookingSource, options: BookingOptions): OctoBookingView {
  const { order, record, seats, product, departure } = source;
  const item = order.items[0]!;
  const now = options.now;
  const status = octoBookingStatus(
    {
      itemStatus: item.status,
      holdExpiresAt: order.holdExpiresAt === null ? null : new Date(order.holdExpiresAt),
      expired: record.cancellation?.expired ?? false,
      checkIns: seats.map((s) => s.checkedInAt),
    },
    now,
  );
  const perSeat = options.pricing && product.priceType === 'person' ? options.pricing : undefined;
  const availability = toOctoAvailability(product, departure, { now });
  const unitItems = seats.map((seat): OctoUnitItemView => {
    const seatStatus = unitItemStatus(status, seat.checkedInAt);
    const view: OctoUnitItemView = {
      uuid: seat.uuid,
      resellerReference: seat.resellerReference,
      supplierReference: seat.id,
      unitId: unitIdOf(seat.demographicId),
      status: seatStatus,
      utcRedeemedAt: seatStatus === 'REDEEMED' ? utcOrNull(seat.checkedInAt) : null,
      contact: toOctoContact(seat.contact),
      ticket: ticketOf(seat, status),
    };
    if (perSeat)
      view.pricing = octoPricing(
        seatPrice(item, seat.demographicId, order.currency),
        order.currency,
        perSeat.commission,
      );
    return view;
  });
  const view: OctoBookingView = {
    id: order.id,
    uuid: record.uuid,
    testMode: options.testMode,
    resellerReference: record.resellerReference,
    supplierReference: order.shortCode,
    status,
    utcCreatedAt: utc(new Date(order.createdAt)),
    utcUpdatedAt: utc(new Date(order.updatedAt)),
    utcExpiresAt: expiresAt(status, order, record),
    utcRedeemedAt: status === 'REDEEMED' ? utc(lastCheckIn(seats)) : null,
    utcConfirmedAt: confirmedAt(status, order, record),
    productId: product.id,
    optionId: OPTION_ID,
    cancellable: isCancellable(
      status,
      departure.start,
      now,
      seats.some((s) => s.checkedInAt !== null),
    ),
    cancellation: cancellationOf(status, order, record),
    freesale: departure.capacity === null,
    availabilityId: availability.id,
    availability,
    contact: toOctoContact({ ...orderContact(order), ...stripNulls(record.contact) }),
    notes: order.notes.length === 0 ? null : order.notes.map((n) => n.text).join('\n'),
    deliveryMethods: ['TICKET'],
    voucher: null,
    unitItems,
  };
  if (options.pricing)
    view.pricing = perSeat
      ? sumPricing(
          unitItems.map((u) => u.pricing!),
          order.currency,
        )
      : octoPricing(
          toMinor(item.amount, minorDigits(order.currency)),
          order.currency,
          options.pricing.commission,
        );
  return view;
}

/** The fields a contact gives (a null field leaves the order's own value). */
const stripNulls = (contact: ContactInput | null): ContactInput =>
  Object.fromEntries(
    Object.entries(contact ?? {}).filter(([, v]) => v !== null && v !== undefined),
  );

const lastCheckIn = (seats: readonly OctoSeat[]): Date =>
  new Date(Math.max(...seats.map((s) => s.checkedInAt!.getTime())));

/** While held, and once the hold ended unconfirmed: the hold's deadline. */
function expiresAt(status: BookingStatus, order: OrderView, record: OctoBookingRecord) {
  if (status === 'ON_HOLD' || (status === 'EXPIRED' && order.holdExpiresAt !== null))
    return utc(new Date(order.holdExpiresAt!));
  // The sweeper clears the order's deadline when it releases the hold: it expired then.
  return status === 'EXPIRED' ? utcOrNull(record.cancellation?.at ?? null) : null;
}

function confirmedAt(status: BookingStatus, order: OrderView, record: OctoBookingRecord) {
  if (record.confirmedAt !== null) return status === 'ON_HOLD' ? null : utc(record.confirmedAt);
  // Booked confirmed at once (no hold): confirmed when made.
  return status === 'CONFIRMED' || status === 'REDEEMED' ? utc(new Date(order.createdAt)) : null;
}

/**
 * How it ended, once CANCELLED or EXPIRED: as recorded, or for a hold past its deadline
 * that the sweeper has not released yet, at the deadline; a cancellation made outside OCTo
 * (the seller's staff) recorded no reason: at the order's last change.
 */
function cancellationOf(status: BookingStatus, order: OrderView, record: OctoBookingRecord) {
  if (status !== 'CANCELLED' && status !== 'EXPIRED') return null;
  const ended = record.cancellation ?? {
    at: new Date(
      status === 'EXPIRED' && order.holdExpiresAt ? order.holdExpiresAt : order.updatedAt,
    ),
    reason: null,
  };
  return { refund: 'FULL' as const, reason: ended.reason, utcCancelledAt: utc(ended.at) };
}
