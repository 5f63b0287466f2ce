/**
 * The one error type of the service: a refusal with a catalogued code, what went wrong in
 * words, and extra members for the client (the field errors, the item and seats left...).
 * Services and pure rules throw it; the HTTP layer (http/error-handler.ts) renders it as
 * problem+json. Nothing here knows about HTTP beyond the status each code maps to.
 */
import { errorCodes, type ErrorCode } from './error-codes.js';

export interface FieldError {
  in: 'body' | 'query' | 'path' | 'header';
  name: string;
  detail: string;
}

export class DomainError extends Error {
  override name = 'DomainError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    /** Extra members of the problem body, e.g. `errors`, or the item and seats left. */
    readonly extra: { errors?: FieldError[]; [member: string]: unknown } = {},
  ) {
    super(detail);
    this.status = errorCodes[code].status;
  }
}

/** Shorthands for the errors every module raises. */
export const notFound = (what: string): DomainError =>
  new DomainError('not_found', `${what} was not found.`);
export const forbidden = (detail: string): DomainError => new DomainError('forbidden', detail);
export const invalid = (
  where: FieldError['in'],
  name: string,
  detail: string,
  code: ErrorCode = 'validation_failed',
): DomainError =>
  new DomainError(code, `${name}: ${detail}`, { errors: [{ in: where, name, detail }] });

/** A refusal of several fields at once (the detail joins them). */
export const invalidFields = (
  errors: FieldError[],
  code: ErrorCode = 'validation_failed',
): DomainError =>
  new DomainError(code, errors.map((e) => `${e.name}: ${e.detail}`).join('; '), { errors });

/** 429 `rate_limited`, with the whole seconds to wait (Retry-After) from a wait in ms. */
export const rateLimited = (detail: string, waitMs: number): DomainError =>
  new DomainError('rate_limited', detail, {
    retryAfter: Math.max(1, Math.ceil(waitMs / 1000)),
  });
