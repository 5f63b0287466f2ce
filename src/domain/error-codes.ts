/**
 * The catalogue of domain error codes: every `code` a service can refuse with, its HTTP
 * status and title (the query language has its own, in query/errors.ts; http/problems.ts
 * joins both). docs/api-conventions.md is checked against the catalogue by a test, so a code
 * cannot ship undocumented. Codes are stable: clients branch on them.
 */
export const errorCodes = {
  // 400
  validation_failed: { status: 400, title: 'The request is not valid' },
  invalid_json: { status: 400, title: 'The body is not valid JSON' },
  invalid_api_version: { status: 400, title: 'X-API-VERSION is not a date' },
  bad_request: { status: 400, title: 'Bad request' },
  invalid_idempotency_key: { status: 400, title: 'Idempotency-Key is malformed' },
  metadata_invalid: { status: 400, title: 'Metadata is not valid' },
  metadata_limit_exceeded: { status: 400, title: 'Metadata would exceed its limits' },
  // 401
  authentication_required: { status: 401, title: 'Authentication required' },
  invalid_credentials: { status: 401, title: 'Credentials not recognised' },
  basic_auth_sandbox_only: { status: 401, title: 'Basic authentication is sandbox-only' },
  unsupported_authorization: { status: 401, title: 'Authorization scheme not supported' },
  // 403
  forbidden: { status: 403, title: 'Not allowed' },
  // 404
  not_found: { status: 404, title: 'Not found' },
  route_not_found: { status: 404, title: 'No such endpoint' },
  metadata_key_not_found: { status: 404, title: 'No such metadata key' },
  // 409
  email_taken: { status: 409, title: 'Email already registered' },
  experience_has_bookings: { status: 409, title: 'The experience has bookings' },
  event_has_bookings: { status: 409, title: 'The event has bookings' },
  not_scheduled: { status: 409, title: 'Not a scheduled departure' },
  departure_started: { status: 409, title: 'The departure has started' },
  capacity_exceeded: { status: 409, title: 'Not enough seats left' },
  already_canceled: { status: 409, title: 'The order is already canceled' },
  amount_mismatch: { status: 409, title: 'The amount is not what the order costs' },
  item_canceled: { status: 409, title: 'The item is canceled' },
  capacity_below_reserved: { status: 409, title: 'Capacity below the seats reserved' },
  guide_unavailable: { status: 409, title: "The guide's schedule does not cover the event" },
  guide_conflict: { status: 409, title: 'The guide is on an overlapping event' },
  hook_exists: { status: 409, title: 'A hook for this event and URL exists' },
  too_many_hooks: { status: 409, title: 'The user has as many hooks as it may' },
  too_many_schedules: { status: 409, title: 'It has as many schedules as it may' },
  guide_preferences_exist: { status: 409, title: 'The experience already has guide preferences' },
  already_delegate: { status: 409, title: 'The account is already a delegate of the seller' },
  already_checked_in: { status: 409, title: 'The guest is already checked in' },
  guest_canceled: { status: 409, title: "The guest's seat is canceled" },
  wrong_day: { status: 409, title: 'The departure is on another day' },
  item_not_confirmed: { status: 409, title: "The guest's booking is not confirmed" },
  guest_checked_in: { status: 409, title: 'A guest of the booking has checked in' },
  ambiguous_code: { status: 409, title: 'The code names bookings of several sellers' },
  resource_full: { status: 409, title: 'A resource the departure uses is full' },
  resource_in_use: { status: 409, title: 'Experiences use this resource' },
  idempotency_in_progress: {
    status: 409,
    title: 'The first request with this key is still running',
  },
  // 422
  idempotency_key_reused: { status: 422, title: 'Idempotency-Key reused for another request' },
  // 408, 413, 414, 415, 429, 431
  request_timeout: { status: 408, title: 'The request was not received in time' },
  payload_too_large: { status: 413, title: 'Body too large' },
  uri_too_long: { status: 414, title: 'URL too long' },
  unsupported_media_type: { status: 415, title: 'Body must be JSON' },
  rate_limited: { status: 429, title: 'Too many requests' },
  headers_too_large: { status: 431, title: 'Request headers too large' },
  // 5xx
  internal_error: { status: 500, title: 'Internal error' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof errorCodes;
