/**
 * The OCTo specification as a test oracle: a body checked against the official schema of an
 * operation's answer, from @octocloud/types 2.0.4 (the zod schemas generated from the
 * specification's OpenAPI document). Zod rather than the OpenAPI document through Ajv: the
 * document writes a nullable reference as `nullable` beside `allOf`, which Ajv reads as "not
 * null" (a null `cancellation` would fail), and zod's `datetime()` holds `utc*` fields to UTC
 * where ajv-formats accepts any offset. Zod strips keys it does not know instead of refusing
 * them; so that a misspelt or invented field fails too, every key of the body must survive
 * the parse (a key the specification does not define for that object is reported).
 */
import { createRequire } from 'node:module';
import type * as Spec from '@octocloud/types';

const spec = createRequire(import.meta.url)('@octocloud/types') as typeof Spec;

/** The answers of OCTo's operations (by the specification's operationId). */
const RESPONSES = {
  Suppliers_get: spec.zSuppliersGetResponse,
  Capabilities_get: spec.zCapabilitiesGetResponse,
  Products_GetProducts: spec.zProductsGetProductsResponse,
  Products_GetProduct: spec.zProductsGetProductResponse,
  Availabilities_AvailabilityCheck: spec.zAvailabilitiesAvailabilityCheckResponse,
  Availabilities_AvailabilityCalendar: spec.zAvailabilitiesAvailabilityCalendarResponse,
  Bookings_BookingReservation: spec.zBookingsBookingReservationResponse,
  Bookings_BookingConfirmation: spec.zBookingsBookingConfirmationResponse,
  Bookings_ExtendReservation: spec.zBookingsExtendReservationResponse,
  Bookings_BookingUpdate: spec.zBookingsBookingUpdateResponse,
  Bookings_BookingCancellation: spec.zBookingsBookingCancellationResponse,
  Bookings_GetBooking: spec.zBookingsGetBookingResponse,
  Bookings_GetBookings: spec.zBookingsGetBookingsResponse,
} as const;

/** Single objects, for checking one piece of an answer. */
const OBJECTS = {
  Supplier: spec.zSupplier,
  Product: spec.zProduct,
  Option: spec.zOption,
  Unit: spec.zUnit,
  Availability: spec.zAvailability,
  AvailabilityCalendar: spec.zAvailabilityCalendar,
  Booking: spec.zBooking,
  UnitItem: spec.zUnitItem,
  Contact: spec.zContact,
  Ticket: spec.zTicket,
  Pricing: spec.zPricing,
  Capability: spec.zCapability,
} as const;

/** Request bodies, for checking that what the specification allows, we accept. */
export const SPEC_BODIES = {
  AvailabilityCheck: spec.zAvailabilityCheckBody,
  AvailabilityCalendar: spec.zAvailabilityCalendarBody,
  BookingReservation: spec.zBookingReservationBody,
  BookingConfirmation: spec.zBookingConfirmationBody,
  BookingUpdate: spec.zBookingUpdateBody,
  ExtendReservation: spec.zExtendReservationBody,
  BookingCancellation: spec.zBookingCancellationBody,
  BookingContact: spec.zBookingContact,
} as const;

/** Error bodies by code; the INVALID_* ones name the value refused. */
const ERRORS = {
  INVALID_PRODUCT_ID: spec.zErrorInvalidProductId,
  INVALID_OPTION_ID: spec.zErrorInvalidOptionId,
  INVALID_UNIT_ID: spec.zErrorInvalidUnitId,
  INVALID_AVAILABILITY_ID: spec.zErrorInvalidAvailabilityId,
  INVALID_BOOKING_UUID: spec.zErrorInvalidBookingUuid,
  BAD_REQUEST: spec.zErrorBadRequest,
  UNPROCESSABLE_ENTITY: spec.zErrorUnprocessableEntity,
  UNAUTHORIZED: spec.zErrorUnauthorized,
  FORBIDDEN: spec.zErrorForbidden,
  INTERNAL_SERVER_ERROR: spec.zErrorInternalServerError,
} as const;

export type OctoOperation = keyof typeof RESPONSES;
export type OctoObject = keyof typeof OBJECTS;
export type OctoErrorName = keyof typeof ERRORS;

interface Schema {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: unknown }
    | { success: false; error: { issues: { path: (string | number)[]; message: string }[] } };
}

const at = (path: readonly (string | number)[]) =>
  path.length === 0 ? '(body)' : path.map((p) => (typeof p === 'number' ? `[${p}]` : p)).join('.');

/** Keys of `sent` that the parse dropped: fields the specification does not define there. */
function unknownKeys(sent: unknown, kept: unknown, path: (string | number)[], found: string[]) {
  if (Array.isArray(sent) && Array.isArray(kept)) {
    sent.forEach((item, i) => unknownKeys(item, kept[i], [...path, i], found));
  } else if (sent && typeof sent === 'object' && kept && typeof kept === 'object') {
    for (const [key, value] of Object.entries(sent)) {
      if (!(key in kept)) found.push(`${at([...path, key])}: not a field of the specification`);
      else unknownKeys(value, (kept as Record<string, unknown>)[key], [...path, key], found);
    }
  }
}

function problems(schema: Schema, body: unknown): string[] {
  const result = schema.safeParse(body);
  if (!result.success)
    return result.error.issues.map((issue) => `${at(issue.path)}: ${issue.message}`);
  const found: string[] = [];
  unknownKeys(body, result.data, [], found);
  return found;
}

/** What is wrong with `body` as the answer of `operation`; empty when it conforms. */
export const octoResponseProblems = (operation: OctoOperation, body: unknown): string[] =>
  problems(RESPONSES[operation] as Schema, body);

/** What is wrong with `body` as one OCTo object of the kind named. */
export const octoObjectProblems = (object: OctoObject, body: unknown): string[] =>
  problems(OBJECTS[object] as Schema, body);

/** What is wrong with `body` as the error body of `code` (its `error` must be that code). */
export function octoErrorProblems(code: OctoErrorName, body: unknown): string[] {
  const found = problems(ERRORS[code] as Schema, body);
  const error = (body as { error?: unknown } | null)?.error;
  if (error !== code) found.push(`error: ${JSON.stringify(error)} is not ${code}`);
  return found;
}

/** Whether the specification accepts `body` as the request body named. */
export const specAcceptsBody = (name: keyof typeof SPEC_BODIES, body: unknown): boolean =>
  (SPEC_BODIES[name] as Schema).safeParse(body).success;

/** Throws, listing every problem, unless `body` is a conforming answer of `operation`. */
export function expectOctoResponse(operation: OctoOperation, body: unknown): void {
  const found = octoResponseProblems(operation, body);
  if (found.length > 0) throw new Error(`${operation} does not conform:\n  ${found.join('\n  ')}`);
}

/** The fields a zod object of the specification has, required or not. */
function fieldsOf(schema: unknown): { required: string[]; optional: string[] } {
  const shape = (schema as { shape: Record<string, { isOptional(): boolean }> }).shape;
  const names = Object.keys(shape);
  return {
    required: names.filter((n) => !shape[n]!.isOptional()),
    optional: names.filter((n) => shape[n]!.isOptional()),
  };
}

/** The fields the specification gives an object. */
export const specFields = (object: OctoObject) => fieldsOf(OBJECTS[object]);

/** The fields the specification gives a request body. */
export const specBodyFields = (body: keyof typeof SPEC_BODIES) => fieldsOf(SPEC_BODIES[body]);
