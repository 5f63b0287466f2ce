/**
 * The requests /octo accepts: bodies, path and query parameters, and the Octo-Capabilities
 * header, as TypeBox schemas faithful to the OCTo specification's field names. Every value is
 * bounded (test/unit/schema-bounds.test.ts walks every route's request schemas). Ids are
 * bounded by length, not by our id pattern: an id we do not know must reach the service and
 * be answered with its own code (INVALID_PRODUCT_ID ...), as OCTo resellers expect, not with
 * BAD_REQUEST. Bodies list every field the specification gives and refuse others (see
 * docs/octo.md, "Unknown fields").
 */
import { Type, type Static } from 'typebox';
import { Nullable, refTo } from '../../http/schemas.js';

/** Longest id or reference a reseller may send: far beyond ours, well short of harm. */
const REF_LENGTH = 100;
/** Most unit items (seats) in one OCTo booking request. */
export const MAX_UNIT_ITEMS = 200;
/** Most availability ids one availability check may name. */
export const MAX_AVAILABILITY_IDS = 100;

const Ref = (description: string) =>
  Type.String({ minLength: 1, maxLength: REF_LENGTH, description });
const LocalDate = (description: string) => Type.String({ format: 'date', description });
const Uuid = Type.String({
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  description: 'Chosen by the reseller (RFC 4122 form)',
});
const Currency = Nullable(
  Type.String({ pattern: '^[A-Z]{3}$', description: "octo/pricing: the product's only currency" }),
);
const Text = (maxLength: number) => Nullable(Type.String({ maxLength }));

const AvailabilityUnit = Type.Object(
  {
    id: Ref('A unit id'),
    quantity: Type.Integer({ minimum: 0, maximum: 10_000 }),
  },
  { additionalProperties: false },
);
const Units = Type.Array(AvailabilityUnit, { maxItems: 20, description: 'Seats asked for' });

const availabilityQuery = {
  productId: Ref('The product (experience) id'),
  optionId: Ref('`DEFAULT`'),
  localDateStart: Type.Optional(LocalDate('First local date; with localDateEnd')),
  localDateEnd: Type.Optional(LocalDate('Last local date, included; with localDateStart')),
  units: Type.Optional(Units),
  currency: Type.Optional(Currency),
};

/** `POST /octo/availability`: one of localDate, localDateStart+End, or availabilityIds. */
export const OctoAvailabilityCheckBody = Type.Object(
  {
    ...availabilityQuery,
    localDate: Type.Optional(LocalDate('One local date')),
    availabilityIds: Type.Optional(
      Type.Array(Ref('An availability id'), { minItems: 1, maxItems: MAX_AVAILABILITY_IDS }),
    ),
  },
  { additionalProperties: false, $id: 'OctoAvailabilityCheckBody' },
);
export type OctoAvailabilityCheckInput = Static<typeof OctoAvailabilityCheckBody>;

/** `POST /octo/availability/calendar`: one object per local day of the range. */
export const OctoAvailabilityCalendarBody = Type.Object(availabilityQuery, {
  additionalProperties: false,
  $id: 'OctoAvailabilityCalendarBody',
});
export type OctoAvailabilityCalendarInput = Static<typeof OctoAvailabilityCalendarBody>;

export const OctoBookingContactBody = Type.Object(
  {
    fullName: Type.Optional(Text(200)),
    firstName: Type.Optional(Text(100)),
    lastName: Type.Optional(Text(100)),
    emailAddress: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
    phoneNumber: Type.Optional(Text(40)),
    locales: Type.Optional(
      Type.Array(Type.String({ maxLength: 35, description: 'BCP 47' }), { maxItems: 10 }),
    ),
    postalCode: Type.Optional(Text(20)),
    country: Type.Optional(Text(64)),
    notes: Type.Optional(Text(2000)),
  },
  { additionalProperties: false, $id: 'OctoBookingContactBody' },
);
export type OctoBookingContactInput = Static<typeof OctoBookingContactBody>;

const UnitItemBody = Type.Object(
  {
    uuid: Type.Optional(Uuid),
    unitId: Ref('A unit id of the option'),
    resellerReference: Type.Optional(Type.String({ maxLength: REF_LENGTH })),
    contact: Type.Optional(refTo(OctoBookingContactBody)),
  },
  { additionalProperties: false },
);
export type OctoUnitItemInput = Static<typeof UnitItemBody>;

const UnitItems = Type.Array(UnitItemBody, {
  maxItems: MAX_UNIT_ITEMS,
  description: 'One per seat; empty or missing: UNPROCESSABLE_ENTITY',
});
const ExpirationMinutes = Type.Integer({
  minimum: 5,
  maximum: 1440,
  description: 'How long the hold lasts; default 30',
});
const ResellerReference = Type.String({ maxLength: REF_LENGTH });
const Notes = Text(2000);

/** `POST /octo/bookings`: reserve (ON_HOLD). */
export const OctoBookingReservationBody = Type.Object(
  {
    uuid: Type.Optional(Uuid),
    productId: Ref('The product (experience) id'),
    optionId: Ref('`DEFAULT`'),
    availabilityId: Type.Optional(Ref('The departure (its local start)')),
    expirationMinutes: Type.Optional(ExpirationMinutes),
    notes: Type.Optional(Notes),
    unitItems: Type.Optional(UnitItems),
    resellerReference: Type.Optional(ResellerReference),
    contact: Type.Optional(refTo(OctoBookingContactBody)),
    currency: Type.Optional(Currency),
  },
  { additionalProperties: false, $id: 'OctoBookingReservationBody' },
);
export type OctoBookingReservationInput = Static<typeof OctoBookingReservationBody>;

/** `POST /octo/bookings/{uuid}/confirm`. */
export const OctoBookingConfirmationBody = Type.Object(
  {
    contact: refTo(OctoBookingContactBody),
    resellerReference: Type.Optional(ResellerReference),
    emailReceipt: Type.Optional(Type.Boolean()),
    unitItems: Type.Optional(UnitItems),
    notes: Type.Optional(Notes),
  },
  { additionalProperties: false, $id: 'OctoBookingConfirmationBody' },
);
export type OctoBookingConfirmationInput = Static<typeof OctoBookingConfirmationBody>;

/** `PATCH /octo/bookings/{uuid}`: the fields given change. */
export const OctoBookingUpdateBody = Type.Object(
  {
    resellerReference: Type.Optional(ResellerReference),
    productId: Type.Optional(Ref('Another product')),
    optionId: Type.Optional(Ref('`DEFAULT`')),
    availabilityId: Type.Optional(Ref('Another departure')),
    expirationMinutes: Type.Optional(ExpirationMinutes),
    notes: Type.Optional(Notes),
    emailReceipt: Type.Optional(Type.Boolean()),
    unitItems: Type.Optional(UnitItems),
    contact: Type.Optional(refTo(OctoBookingContactBody)),
  },
  { additionalProperties: false, $id: 'OctoBookingUpdateBody' },
);
export type OctoBookingUpdateInput = Static<typeof OctoBookingUpdateBody>;

/** `POST /octo/bookings/{uuid}/extend`. */
export const OctoExtendReservationBody = Type.Object(
  { expirationMinutes: Type.Optional(ExpirationMinutes) },
  { additionalProperties: false, $id: 'OctoExtendReservationBody' },
);
export type OctoExtendReservationInput = Static<typeof OctoExtendReservationBody>;

/** `POST /octo/bookings/{uuid}/cancel` and `DELETE /octo/bookings/{uuid}`. */
export const OctoBookingCancellationBody = Type.Object(
  {
    reason: Type.Optional(Text(500)),
    force: Type.Optional(Type.Boolean({ description: 'Accepted; changes nothing here' })),
  },
  { additionalProperties: false, $id: 'OctoBookingCancellationBody' },
);
export type OctoBookingCancellationInput = Static<typeof OctoBookingCancellationBody>;

/** `GET /octo/bookings`: at least one of these (BAD_REQUEST otherwise). */
export const OctoGetBookingsQuery = Type.Object(
  {
    resellerReference: Type.Optional(ResellerReference),
    supplierReference: Type.Optional(Ref("The order's short code")),
    localDate: Type.Optional(LocalDate('Bookings departing that local day')),
    localDateStart: Type.Optional(LocalDate('With localDateEnd')),
    localDateEnd: Type.Optional(LocalDate('With localDateStart')),
  },
  { additionalProperties: false },
);
export type OctoGetBookingsInput = Static<typeof OctoGetBookingsQuery>;

/** `{uuid}` of the booking routes: any text, so an unknown one is INVALID_BOOKING_UUID. */
export const OctoBookingParams = Type.Object({ uuid: Ref('The booking uuid') });
export const OctoProductParams = Type.Object({ id: Ref('The product id') });

/** The request header naming capabilities (capabilities.ts reads it). */
export const OctoCapabilitiesHeader = Type.Object({
  'octo-capabilities': Type.Optional(
    Type.String({ maxLength: 500, description: 'Comma-separated capability ids' }),
  ),
});

/** Every named schema of the requests, for the service to register (refs resolve by $id). */
export const OCTO_REQUEST_SCHEMAS = [
  OctoBookingContactBody,
  OctoAvailabilityCheckBody,
  OctoAvailabilityCalendarBody,
  OctoBookingReservationBody,
  OctoBookingConfirmationBody,
  OctoBookingUpdateBody,
  OctoExtendReservationBody,
  OctoBookingCancellationBody,
];
