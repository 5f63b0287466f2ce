/**
 * The one error type of the service and its problem+json (RFC 9457) body. Services throw
 * `ApiError` with a catalogued code; the error handler (http/error-handler.ts) renders it.
 */
import { errorCodes, type ErrorCode } from './error-codes.js';

export interface FieldError {
  in: 'body' | 'query' | 'path' | 'header';
  name: string;
  detail: string;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  requestId?: string;
  errors?: FieldError[];
  [extra: string]: unknown;
}

export class ApiError extends Error {
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

  toProblem(requestId?: string): ProblemBody {
    return problem(this.code, this.detail, { ...this.extra, requestId });
  }
}

export function problem(
  code: ErrorCode,
  detail: string,
  extra: Record<string, unknown> = {},
): ProblemBody {
  const { status, title } = errorCodes[code];
  return { type: `urn:problem-type:booking:${code}`, title, status, detail, code, ...extra };
}

/** Shorthands for the errors every module raises. */
export const notFound = (what: string): ApiError =>
  new ApiError('not_found', `${what} was not found.`);
export const forbidden = (detail: string): ApiError => new ApiError('forbidden', detail);
export const invalid = (
  where: FieldError['in'],
  name: string,
  detail: string,
  code: ErrorCode = 'validation_failed',
): ApiError => new ApiError(code, `${name}: ${detail}`, { errors: [{ in: where, name, detail }] });
