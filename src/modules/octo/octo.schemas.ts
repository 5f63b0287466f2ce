/**
 * The OCTo objects /octo answers with, as TypeBox schemas named `Octo…` (so the service's
 * OpenAPI document keeps them apart from Xola's objects). Field names, enums and nullability
 * follow the OCTo specification (@octocloud/types 2.0.4, its openapi.yaml); the fields of the
 * `octo/pricing` capability are optional, present when the caller asked for it. Fields of
 * capabilities we do not offer (content, pickups, offers, ...) are left out. `utc*` fields are
 * UTC instants to the second (`2030-06-01T07:00:00Z`); `localDateTime*` carry the product's
 * local offset (`2030-06-01T09:00:00+02:00`). docs/octo.md says what each maps to.
 */
import { Type, type TSchema } from 'typebox';
import { refTo } from '../../http/schemas.js';
import { OctoBooking, OctoContact, OctoTicket, OctoUnitItem } from './octo-booking.schemas.js';
import {
  OctoAvailability,
  OctoAvailabilityCalendarDay,
  OctoCapability,
  OctoOption,
  OctoProduct,
  OctoSupplier,
  OctoUnit,
} from './octo-catalog.schemas.js';
import { OctoPricing, OctoUnitPricing } from './octo-fields.schemas.js';

export * from './octo-booking.schemas.js';
export * from './octo-catalog.schemas.js';
// The field builders stay inside the module: only the enumerations and objects are shown.
export {
  AVAILABILITY_STATUSES,
  BOOKING_STATUSES,
  CONTACT_FIELDS,
  DELIVERY_FORMATS,
  DELIVERY_METHODS,
  OctoPricing,
  OctoUnitPricing,
  REDEMPTION_METHODS,
  UNIT_TYPES,
  type AvailabilityStatus,
  type BookingStatus,
  type OctoPricingView,
  type OctoUnitPricingView,
  type UnitType,
} from './octo-fields.schemas.js';

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
