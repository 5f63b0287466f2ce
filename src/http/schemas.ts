/**
 * Schemas shared by every route: ids, references, the problem body, and the error
 * responses a route documents.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { ID_PATTERN } from '../db/ids.js';
import type { ErrorCode } from './error-codes.js';
import { errorCodes } from './error-codes.js';

export const Id = Type.String({
  pattern: ID_PATTERN,
  description: '24 lowercase hex characters',
  examples: ['5e1f3c9a2b4d6e8f0a1b2c3d'],
});

export const IdParams = Type.Object({ id: Id });

export const Ref = Type.Object({ id: Id }, { additionalProperties: false });

export const Timestamp = Type.String({ format: 'date-time' });

export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ description: 'Stable snake_case error code (docs/api-conventions.md)' }),
    requestId: Type.Optional(Type.String()),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          in: Type.Enum(['body', 'query', 'path', 'header']),
          name: Type.String(),
          detail: Type.String(),
        }),
      ),
    ),
  },
  { additionalProperties: true, $id: 'Problem', description: 'RFC 9457 problem details' },
);

const ProblemRef = Type.Unsafe({ $ref: 'Problem#' });

/**
 * Documents the error responses of a route by code: statuses are taken from the
 * catalogue, and every route also documents 429 and 500.
 */
export function errorResponses(...codes: ErrorCode[]): Record<number, TSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes, 'rate_limited', 'internal_error'] as ErrorCode[]) {
    const { status } = errorCodes[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      status,
      { ...ProblemRef, description: `Problem: ${list.join(', ')}` },
    ]),
  );
}

/** A value that may be null, in the form fast-json-stringify serializes fastest. */
export function Nullable<T extends TSchema>(schema: T) {
  const type = (schema as { type?: string }).type;
  return Type.Unsafe<Static<T> | null>(
    type ? { ...schema, type: [type, 'null'] } : Type.Union([schema, Type.Null()]),
  );
}

/** The envelope of every list: `{data, paging: {next, total?}}`. */
export function ListOf(item: TSchema) {
  return Type.Object({
    data: Type.Array(item),
    paging: Type.Object({
      next: Nullable(Type.String({ description: 'Relative URL of the next page, or null' })),
      total: Type.Optional(Type.Integer({ description: 'With count=true' })),
    }),
  });
}

/**
 * The documented query parameters of a list (filters are described in the operation's
 * description). Values are left untyped here: the query language validates them itself,
 * with its own errors.
 */
export const ListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Unsafe({ description: 'Page size, 1..100 (default 20)' })),
    skip: Type.Optional(Type.Unsafe({ description: 'Rows to skip (default 0)' })),
    sort: Type.Optional(Type.Unsafe({ description: 'field or -field (default -id)' })),
    count: Type.Optional(Type.Unsafe({ description: 'true adds paging.total' })),
  },
  { additionalProperties: true },
);

/** Errors every list endpoint can answer: the query language's own, and credentials. */
export const listErrors = errorResponses(
  'invalid_parameter',
  'repeated_parameter',
  'unknown_field',
  'unknown_operator',
  'operator_not_allowed',
  'invalid_value',
  'wrong_value_count',
  'invalid_paging',
  'invalid_sort',
  'invalid_credentials',
);

/** Security requirement for routes that need credentials. */
export const authenticated: { [scheme: string]: string[] }[] = [
  { apiKeyHeader: [] },
  { apiKeyQuery: [] },
  { basic: [] },
];
