/**
 * The OCTo module's public surface (docs/octo.md): the module itself (its routes under
 * /octo), the OCTo objects and request bodies, and the pure mapping of experiences,
 * departures and orders onto them.
 */
export { OCTO_PREFIX, octoModule, type OctoModule } from './octo.module.js';
export { ownKeyReseller, type BearerAuthenticator } from './octo-scope.js';
export * from './octo.schemas.js';
export * from './octo.bodies.js';
export {
  OCTO_ERRORS,
  OCTO_ERROR_CODES,
  OctoError,
  OctoProblem,
  fail,
  octoError,
  octoStatus,
} from './octo.errors.js';
export type { OctoErrorBody, OctoErrorCode, OctoErrorReply } from './octo.errors.js';
export {
  capabilitiesHeader,
  capabilitiesOffered,
  parseCapabilities,
  type CapabilityId,
} from './capabilities.js';
export {
  availabilityIdOf,
  isScheduledStart,
  startOfAvailabilityId,
  type Departure,
  type Product,
} from './departures.js';
export {
  seatsOf,
  toOctoAvailability,
  type AvailabilityOptions,
  type UnitsAsked,
} from './availability.mapping.js';
export { datesFrom, toOctoCalendar } from './calendar.mapping.js';
export {
  OPTION_ID,
  toOctoProduct,
  toOctoSupplier,
  type SupplierSource,
} from './product.mapping.js';
export { octoBookingStatus, unitItemStatus } from './booking-status.js';
export {
  toOctoBooking,
  toOctoContact,
  type BookingSource,
  type OctoBookingRecord,
  type OctoSeat,
} from './booking.mapping.js';
export { commissionBps, netOf, octoPricing } from './pricing.js';
export { DEFAULT_UNIT_ID, unitTypeOf, unitsOf, type Unit } from './units.js';
export * from './requests.js';
