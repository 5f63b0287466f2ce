/**
 * What a reseller reads before booking, as OCTo objects: the supplier, its capabilities, its
 * products with their option and units, and departures' availability and calendar days.
 */
import { Type, type Static } from 'typebox';
import { Nullable, refTo } from '../../http/schemas.js';
import {
  AVAILABILITY_STATUSES,
  CONTACT_FIELDS,
  DELIVERY_FORMATS,
  DELIVERY_METHODS,
  LocalDateTime,
  OctoPricing,
  OctoUnitPricing,
  pricingOf,
  REDEMPTION_METHODS,
  UNIT_TYPES,
  Utc,
} from './octo-fields.schemas.js';

const OpeningHours = Type.Object({ from: Type.String(), to: Type.String() });
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
