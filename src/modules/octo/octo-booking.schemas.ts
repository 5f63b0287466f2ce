/**
 * A reseller's booking as OCTo shows it: its contact, tickets, one unit item per guest, and
 * the booking itself with its availability.
 */
import { Type, type Static } from 'typebox';
import { Nullable, refTo } from '../../http/schemas.js';
import { OctoAvailability } from './octo-catalog.schemas.js';
import {
  BOOKING_STATUSES,
  DELIVERY_FORMATS,
  DELIVERY_METHODS,
  OctoPricing,
  pricingOf,
  REDEMPTION_METHODS,
  Utc,
} from './octo-fields.schemas.js';

export const OctoContact = Type.Object(
  {
    fullName: Nullable(Type.String()),
    firstName: Nullable(Type.String()),
    lastName: Nullable(Type.String()),
    emailAddress: Nullable(Type.String({ format: 'email' })),
    phoneNumber: Nullable(Type.String()),
    locales: Type.Array(Type.String()),
    postalCode: Nullable(Type.String()),
    country: Nullable(Type.String()),
    notes: Nullable(Type.String()),
  },
  { $id: 'OctoContact' },
);
export type OctoContactView = Static<typeof OctoContact>;

export const OctoTicket = Type.Object(
  {
    redemptionMethod: Type.Enum(REDEMPTION_METHODS),
    utcRedeemedAt: Nullable(Utc('when it was scanned')),
    deliveryOptions: Type.Array(
      Type.Object({
        deliveryFormat: Type.Enum(DELIVERY_FORMATS),
        deliveryValue: Type.String({ description: 'The ticket code itself' }),
      }),
      { description: 'Empty until the booking is confirmed' },
    ),
  },
  { $id: 'OctoTicket' },
);
export type OctoTicketView = Static<typeof OctoTicket>;

/** One seat of a booking: a guest (issue 29). */
export const OctoUnitItem = Type.Object(
  {
    uuid: Type.String({ description: "The reseller's, or ours when it sent none" }),
    resellerReference: Nullable(Type.String()),
    supplierReference: Nullable(Type.String({ description: "The guest's id" })),
    unitId: Type.String(),
    status: Type.Enum(BOOKING_STATUSES),
    utcRedeemedAt: Nullable(Utc('when the guest checked in')),
    contact: refTo(OctoContact),
    ticket: Nullable(refTo(OctoTicket)),
    pricing: pricingOf(refTo(OctoPricing), 'this seat'),
  },
  { $id: 'OctoUnitItem' },
);
export type OctoUnitItemView = Static<typeof OctoUnitItem>;

export const OctoBooking = Type.Object(
  {
    id: Type.String({ description: "The order's id" }),
    uuid: Type.String({ format: 'uuid' }),
    testMode: Type.Boolean({ description: 'true in the sandbox' }),
    resellerReference: Nullable(Type.String()),
    supplierReference: Nullable(Type.String({ description: "The order's short code" })),
    status: Type.Enum(BOOKING_STATUSES),
    utcCreatedAt: Utc('when it was reserved'),
    utcUpdatedAt: Utc('its last change'),
    utcExpiresAt: Nullable(Utc('while ON_HOLD (and once EXPIRED): when the hold ends')),
    utcRedeemedAt: Nullable(Utc('when its last guest checked in, once all have')),
    utcConfirmedAt: Nullable(Utc('when it was confirmed')),
    productId: Type.String(),
    optionId: Type.String(),
    cancellable: Type.Boolean(),
    cancellation: Nullable(
      Type.Object({
        refund: Type.Enum(['FULL', 'PARTIAL', 'NONE']),
        reason: Nullable(Type.String()),
        utcCancelledAt: Utc('when it was cancelled or expired'),
      }),
    ),
    freesale: Type.Boolean(),
    availabilityId: Nullable(Type.String()),
    availability: Nullable(refTo(OctoAvailability)),
    contact: refTo(OctoContact),
    notes: Nullable(Type.String()),
    deliveryMethods: Type.Array(Type.Enum(DELIVERY_METHODS)),
    voucher: Nullable(refTo(OctoTicket)),
    unitItems: Type.Array(refTo(OctoUnitItem)),
    pricing: pricingOf(refTo(OctoPricing), 'the whole booking'),
  },
  { $id: 'OctoBooking' },
);
export type OctoBookingView = Static<typeof OctoBooking>;
