/**
 * OCTo's error bodies: `{error, errorMessage}` plus the offending value for the INVALID_*
 * codes. Every OCTo error is HTTP 400: the specification documents no other status for any
 * operation, OCTo's published validator asserts 400 for each code (UNPROCESSABLE_ENTITY
 * included), and its reference mock answers 400 for UNAUTHORIZED and FORBIDDEN too. A reseller
 * branches on `error`, never on the status. INTERNAL_SERVER_ERROR (500) is the one exception,
 * and /octo never means to send it.
 */
import { Type, type Static } from 'typebox';

export const OCTO_ERRORS = {
  INVALID_PRODUCT_ID: { field: 'productId', message: 'The productId was missing or invalid' },
  INVALID_OPTION_ID: { field: 'optionId', message: 'The optionId was missing or invalid' },
  INVALID_UNIT_ID: { field: 'unitId', message: 'The unitId was missing or invalid' },
  INVALID_AVAILABILITY_ID: {
    field: 'availabilityId',
    message: 'The availabilityId was missing or invalid',
  },
  INVALID_BOOKING_UUID: {
    field: 'uuid',
    message: 'The uuid was already used, missing or invalid',
  },
  BAD_REQUEST: {
    field: null,
    message: 'The request is not formatted correctly, misses a required field or has a wrong type',
  },
  UNPROCESSABLE_ENTITY: {
    field: null,
    message: 'The request is well formed but cannot be processed',
  },
  UNAUTHORIZED: {
    field: null,
    message: 'Send an API key in the Authorization header: Bearer <key>',
  },
  FORBIDDEN: {
    field: null,
    message: 'The API key is invalid or revoked, or may not reach this resource',
  },
  INTERNAL_SERVER_ERROR: {
    field: null,
    message: 'There was an unrecoverable error, please try again',
  },
} as const;

export type OctoErrorCode = keyof typeof OCTO_ERRORS;
type FieldOf<C extends OctoErrorCode> = (typeof OCTO_ERRORS)[C]['field'];
/** The codes that name the value they refuse. */
export type OctoInvalidIdCode = {
  [C in OctoErrorCode]: FieldOf<C> extends string ? C : never;
}[OctoErrorCode];

export const OCTO_ERROR_CODES = Object.keys(OCTO_ERRORS) as OctoErrorCode[];

/** The HTTP status of an OCTo error: 400 for every code but INTERNAL_SERVER_ERROR. */
export const octoStatus = (code: OctoErrorCode): number =>
  code === 'INTERNAL_SERVER_ERROR' ? 500 : 400;

export const OctoError = Type.Object(
  {
    error: Type.Enum(OCTO_ERROR_CODES),
    errorMessage: Type.String(),
    productId: Type.Optional(Type.String()),
    optionId: Type.Optional(Type.String()),
    unitId: Type.Optional(Type.String()),
    availabilityId: Type.Optional(Type.String()),
    uuid: Type.Optional(Type.String()),
  },
  { $id: 'OctoError' },
);
export type OctoErrorBody = Static<typeof OctoError>;

export interface OctoErrorReply {
  status: number;
  body: OctoErrorBody;
}

/**
 * An OCTo error reply. The INVALID_* codes carry the value refused (as sent, `''` when it
 * was missing); `detail` says more than the standard message when there is more to say
 * (which date is missing, how many seats are left).
 */
export function octoError(
  code: OctoInvalidIdCode,
  value: string | undefined,
  detail?: string,
): OctoErrorReply;
export function octoError(
  code: Exclude<OctoErrorCode, OctoInvalidIdCode>,
  detail?: string,
): OctoErrorReply;
export function octoError(code: OctoErrorCode, ...rest: (string | undefined)[]): OctoErrorReply {
  const { field, message } = OCTO_ERRORS[code];
  const detail = field === null ? rest[0] : rest[1];
  const body: OctoErrorBody = {
    error: code,
    errorMessage: detail ? `${message}: ${detail}` : message,
  };
  if (field !== null) body[field] = rest[0] ?? '';
  return { status: octoStatus(code), body };
}

/** An OCTo error thrown by a rule; the /octo error handler answers with its reply. */
export class OctoProblem extends Error {
  constructor(readonly reply: OctoErrorReply) {
    super(`${reply.body.error}: ${reply.body.errorMessage}`);
    this.name = 'OctoProblem';
  }
}

/** Throws an OCTo error (the same arguments as octoError). */
export function fail(code: OctoInvalidIdCode, value: string | undefined, detail?: string): never;
export function fail(code: Exclude<OctoErrorCode, OctoInvalidIdCode>, detail?: string): never;
export function fail(code: OctoErrorCode, ...rest: (string | undefined)[]): never {
  throw new OctoProblem(
    (octoError as (c: OctoErrorCode, ...r: (string | undefined)[]) => OctoErrorReply)(
      code,
      ...rest,
    ),
  );
}
