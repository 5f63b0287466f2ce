/**
 * The OCTo objects /octo answers with, as TypeBox schemas named `Octo…` (so the service's
 * OpenAPI document keeps them apart from Xola's objects). Field names, enums and nullability
 * follow the OCTo specification (@octocloud/types 2.0.4, its openapi.yaml); the fields of the
 * `octo/pricing` capability are optional, present when the caller asked for it. Fields of
 * capabilities we do not offer (content, pickups, offers, ...) are left out. `utc*` fields are
 * UTC instants to the second (`2030-06-01T07:00:00Z`); `localDateTime*` carry the product's
 * local offset (`2030-06-01T09:00:00+02:00`). docs/octo.md says what each maps to.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { Nullable, refTo } from '../../http/schemas.js';

export const AVAILABILITY_STATUSES = [
  'AVAILABLE',
  'FREESALE',
  'SOLD_OUT',
  'LIMITED',
  'CLOSED',
] as const;
export const BOOKING_STATUSES = [
  'ON_HOLD',
  'CONFIRMED',
  'EXPIRED',
  'CANCELLED',
  'REDEEMED',
  'PENDING',
  'REJECTED',
] as const;
export const UNIT_TYPES = [
  'ADULT',
  'YOUTH',
  'CHILD',
  'INFANT',
  'FAMILY',
  'SENIOR',
  'STUDENT',
  'MILITARY',
  'OTHER',
] as const;
export const CONTACT_FIELDS = [
  'firstName',
  'lastName',
  'emailAddress',
  'phoneNumber',
  'country',
  'notes',
  'locales',
  'allowMarketing',
  'postalCode',
] as const;
export const DELIVERY_FORMATS = [
  'PDF_URL',
  'QRCODE',
  'CODE128',
  'PKPASS_URL',
  'AZTECCODE',
] as const;
export const DELIVERY_METHODS = ['VOUCHER', 'TICKET'] as const;
export const REDEMPTION_METHODS = ['DIGITAL', 'PRINT', 'MANIFEST'] as const;

export type AvailabilityStatus = (typeof AVAILABILITY_STATUSES)[number];
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
export type UnitType = (typeof UNIT_TYPES)[number];

const Utc = (description: string) =>
  Type.String({ format: 'date-time', description: `UTC, to the second: ${description}` });
const LocalDateTime = (description: string) =>
  Type.String({ description: `ISO 8601 with the product's local offset: ${description}` });
const Minor = (description: string) =>
  Type.Integer({ description: `In the currency's minor unit: ${description}` });

/** A price in the currency's minor unit (octo/pricing). We know of no taxes: always []. */
export const OctoPricing = Type.Object(
  {
    original: Minor('before any discount (we give none: the retail price)'),
    retail: Minor('what the guest pays'),
    net: Nullable(Minor('what the reseller owes: retail less its commission; null: none set')),
    currency: Type.String({ description: 'ISO 4217' }),
    currencyPrecision: Type.Integer({ description: 'Decimals of the minor unit' }),
    includedTaxes: Type.Array(
      Type.Object({
        name: Type.String(),
        retail: Type.Integer(),
        original: Type.Integer(),
        net: Nullable(Type.Integer()),
      }),
    ),
  },
  { $id: 'OctoPricing' },
);
export type OctoPricingView = Static<typeof OctoPricing>;

/** A unit's price at one departure (availability `unitPricing`, calendar `unitPricingFrom`). */
export const OctoUnitPricing = Type.Object(
  { ...OctoPricing.properties, unitId: Type.String() },
  { $id: 'OctoUnitPricing' },
);
export type OctoUnitPricingView = Static<typeof OctoUnitPricing>;

const OpeningHours = Type.Object({ from: Type.String(), to: Type.String() });
const pricingOf = <T extends TSchema>(schema: T, description: string) =>
  Type.Optional({ ...schema, description: `octo/pricing: ${description}` });

export const OctoUnit = Type.Object(
  {
    id: Type.String({ description: "The guest type's id; `adult` when it has none" }),
    internalName: Type.String({ description: "The guest type's label" }),
    reference: Nullable(Type.String({ description: "The guest type's code" })),
    type: Type.Enum(UNIT_TYPES),
    restrictions: Type.Object({
      minAge: Type.Integer(),
      maxAge: Type.Integer(),
      idRequired: Type.Boolean(),
      minQuantity: Nullable(Type.Integer()),
      maxQuantity: Nullable(Type.Integer()),
      paxCount: Type.Integer(),
      accompaniedBy: Type.Array(Type.String()),
    }),
    requiredContactFields: Type.Array(Type.Enum(CONTACT_FIELDS)),
    pricingFrom: pricingOf(Type.Array(refTo(OctoPricing)), 'the price of one seat, per currency'),
  },
  { $id: 'OctoUnit' },
);
export type OctoUnitView = Static<typeof OctoUnit>;

export const OctoOption = Type.Object(
  {
    id: Type.Literal('DEFAULT'),
    default: Type.Boolean(),
    internalName: Type.String(),
    reference: Nullable(Type.String()),
    availabilityLocalStartTimes: Type.Array(Type.String({ description: 'HH:MM' })),
    cancellationCutoff: Type.String({ description: 'e.g. `0 hours`' }),
    cancellationCutoffAmount: Type.Integer(),
    cancellationCutoffUnit: Type.Enum(['minute', 'hour', 'day']),
    requiredContactFields: Type.Array(Type.Enum(CONTACT_FIELDS)),
    restrictions: Type.Object({
      minUnits: Nullable(Type.Integer()),
      maxUnits: Nullable(Type.Integer()),
    }),
    units: Type.Array(refTo(OctoUnit)),
    pricingFrom: pricingOf(
      Type.Array(refTo(OctoPricing)),
      'per booking (outing pricing), per currency',
    ),
  },
  { $id: 'OctoOption' },
);
export type OctoOptionView = Static<typeof OctoOption>;

export const OctoProduct = Type.Object(
  {
    id: Type.String({ description: "The experience's id" }),
    internalName: Type.String(),
    reference: Nullable(Type.String()),
    locale: Type.String(),
    timeZone: Type.String({ description: 'IANA' }),
    allowFreesale: Type.Boolean(),
    instantConfirmation: Type.Boolean(),
    instantDelivery: Type.Boolean(),
    availabilityRequired: Type.Boolean(),
    availabilityType: Type.Enum(['START_TIME', 'OPENING_HOURS']),
    deliveryFormats: Type.Array(Type.Enum(DELIVERY_FORMATS)),
    deliveryMethods: Type.Array(Type.Enum(DELIVERY_METHODS)),
    redemptionMethod: Type.Enum(REDEMPTION_METHODS),
    options: Type.Array(refTo(OctoOption)),
    defaultCurrency: pricingOf(Type.String(), 'the currency prices are in'),
    availableCurrencies: pricingOf(Type.Array(Type.String()), 'the only currency: one'),
    pricingPer: pricingOf(Type.Enum(['BOOKING', 'UNIT']), 'UNIT for per-person pricing'),
  },
  { $id: 'OctoProduct' },
);
export type OctoProductView = Static<typeof OctoProduct>;

export const OctoSupplier = Type.Object(
  {
    id: Type.String({ description: "The seller's id" }),
    name: Type.String(),
    endpoint: Type.String({ format: 'uri', description: 'Where this OCTo API answers' }),
    contact: Type.Object({
      website: Nullable(Type.String()),
      email: Nullable(Type.String()),
      telephone: Nullable(Type.String()),
      address: Nullable(Type.String()),
    }),
  },
  { $id: 'OctoSupplier' },
);
export type OctoSupplierView = Static<typeof OctoSupplier>;

export const OctoCapability = Type.Object(
  {
    id: Type.Enum(['octo/pricing', 'octo/webhooks']),
    revision: Type.Integer(),
    required: Type.Boolean(),
    dependencies: Type.Array(Type.String()),
    docs: Nullable(Type.String()),
  },
  { $id: 'OctoCapability' },
);
export type OctoCapabilityView = Static<typeof OctoCapability>;

const availabilityFields = {
  available: Type.Boolean({ description: 'Whether a booking can take a seat now' }),
  status: Type.Enum(AVAILABILITY_STATUSES),
  vacancies: Nullable(Type.Integer({ description: 'Seats left; null: unlimited (FREESALE)' })),
  capacity: Nullable(Type.Integer({ description: 'Seats in all; null: unlimited' })),
  openingHours: Type.Array(OpeningHours, { description: 'Departures have none: []' }),
};

/** One departure: an experience at a local start. */
export const OctoAvailability = Type.Object(
  {
    id: Type.String({ description: 'The local start, e.g. 2030-06-01T09:00:00+02:00' }),
    localDateTimeStart: LocalDateTime('the departure'),
    localDateTimeEnd: LocalDateTime('the departure plus the duration'),
    utcCutoffAt: Utc('the last moment to book: the departure'),
    allDay: Type.Boolean(),
    ...availabilityFields,
    maxUnits: Nullable(Type.Integer({ description: 'Most seats one booking may take (orderMax)' })),
    unitPricing: pricingOf(Type.Array(refTo(OctoUnitPricing)), 'each unit at this departure'),
    pricing: pricingOf(refTo(OctoPricing), 'the units asked for; the outing for outing pricing'),
  },
  { $id: 'OctoAvailability' },
);
export type OctoAvailabilityView = Static<typeof OctoAvailability>;

/** One local day of a product: its departures aggregated. */
export const OctoAvailabilityCalendarDay = Type.Object(
  {
    localDate: Type.String({ format: 'date' }),
    ...availabilityFields,
    unitPricingFrom: pricingOf(Type.Array(refTo(OctoUnitPricing)), 'each unit, lowest of the day'),
    pricingFrom: pricingOf(refTo(OctoPricing), 'lowest of the day'),
  },
  { $id: 'OctoAvailabilityCalendarDay' },
);
export type OctoAvailabilityCalendarDayView = Static<typeof OctoAvailabilityCalendarDay>;

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

/**
 * The arrays /octo answers with, named for the OpenAPI document and generated clients (in the
 * plural: a `…List` is the query language's paged envelope, which OCTo does not use).
 */
const listOf = (schema: TSchema & { $id?: string }, id: string) =>
  Type.Array(refTo(schema), { $id: id });
export const OctoProducts = listOf(OctoProduct, 'OctoProducts');
export const OctoCapabilities = listOf(OctoCapability, 'OctoCapabilities');
export const OctoAvailabilities = listOf(OctoAvailability, 'OctoAvailabilities');
export const OctoAvailabilityCalendar = listOf(
  OctoAvailabilityCalendarDay,
  'OctoAvailabilityCalendar',
);
export const OctoBookings = listOf(OctoBooking, 'OctoBookings');

/** Every named schema of the answers, for the service to register (refs resolve by $id). */
export const OCTO_RESPONSE_SCHEMAS = [
  OctoPricing,
  OctoUnitPricing,
  OctoUnit,
  OctoOption,
  OctoProduct,
  OctoSupplier,
  OctoCapability,
  OctoAvailability,
  OctoAvailabilityCalendarDay,
  OctoContact,
  OctoTicket,
  OctoUnitItem,
  OctoBooking,
  OctoProducts,
  OctoCapabilities,
  OctoAvailabilities,
  OctoAvailabilityCalendar,
  OctoBookings,
];
