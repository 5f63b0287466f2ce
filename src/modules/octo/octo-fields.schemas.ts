/**
 * The parts every OCTo object is made of: the specification's enumerations, the `utc*`,
 * `localDateTime*` and minor-unit field builders, and the pricing objects of the
 * `octo/pricing` capability (octo.schemas.ts says how the objects follow the specification).
 */
import { Type, type Static, type TSchema } from 'typebox';
import { Nullable } from '../../http/schemas.js';

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

export const Utc = (description: string) =>
  Type.String({ format: 'date-time', description: `UTC, to the second: ${description}` });
export const LocalDateTime = (description: string) =>
  Type.String({ description: `ISO 8601 with the product's local offset: ${description}` });
export const Minor = (description: string) =>
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

/** A field present only when the caller asked for octo/pricing. */
export const pricingOf = <T extends TSchema>(schema: T, description: string) =>
  Type.Optional({ ...schema, description: `octo/pricing: ${description}` });
