/**
 * Problem details (RFC 9457) on the wire: the full catalogue of codes a response can carry
 * (the domain's and the query language's), the body of a problem, a domain error rendered
 * as one, and one named schema per code (with the members that code carries), so the
 * OpenAPI document and a generated client can tell errors apart by `code`.
 */
import { Type, type TProperties, type TSchema } from 'typebox';
import { errorCodes as domainCodes } from '../domain/error-codes.js';
import type { DomainError, FieldError } from '../domain/errors.js';
import { queryErrorCodes, type QueryErrorCode } from '../query/errors.js';

const queryCodes = Object.fromEntries(
  Object.entries(queryErrorCodes).map(([code, title]) => [code, { status: 400, title }]),
) as Record<QueryErrorCode, { status: 400; title: string }>;

/** Every code a problem+json body can carry, with its status and title. */
export const problemCodes = { ...queryCodes, ...domainCodes };
export type ProblemCode = keyof typeof problemCodes;

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

export function problem(
  code: ProblemCode,
  detail: string,
  extra: Record<string, unknown> = {},
): ProblemBody {
  const { status, title } = problemCodes[code];
  return { type: `urn:problem-type:booking:${code}`, title, status, detail, code, ...extra };
}

export const problemOf = (error: DomainError, requestId?: string): ProblemBody =>
  problem(error.code, error.detail, { ...error.extra, requestId });

// ---- schemas: one named problem schema per code, for the OpenAPI document and clients ----

const FieldErrors = Type.Array(
  Type.Object({
    in: Type.Enum(['body', 'query', 'path', 'header']),
    name: Type.String(),
    detail: Type.String(),
  }),
  { description: 'One entry per field at fault' },
);
const RefId = Type.Object({ id: Type.String() });
const ItemIndex = Type.Integer({ description: 'Index of the item at fault in `items`' });

/** Members a problem carries beyond the standard ones, by code (every 400 may carry `errors`). */
const MEMBERS: Partial<Record<ProblemCode, TProperties>> = {
  not_scheduled: { item: ItemIndex },
  departure_started: { item: ItemIndex },
  capacity_exceeded: {
    item: ItemIndex,
    event: RefId,
    seatsLeft: Type.Union([Type.Integer(), Type.Null()], { description: 'null: unlimited' }),
  },
  guide_unavailable: { guide: RefId },
  already_checked_in: {
    guest: RefId,
    checkedInAt: Type.String({ format: 'date-time' }),
    checkedInBy: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()]),
  },
  guest_canceled: { guest: RefId },
  resource_full: {
    resource: Type.Object({ id: Type.String(), name: Type.String() }),
    item: ItemIndex,
    event: RefId,
    seatsLeft: Type.Integer({ description: 'Guests that still fit' }),
  },
  wrong_day: {
    today: Type.String({ format: 'date', description: "Today in the departure's time zone" }),
    departures: Type.Array(
      Type.Object({ event: RefId, arrival: Type.String(), arrivalTime: Type.Integer() }),
    ),
  },
  guide_conflict: {
    guide: RefId,
    event: Type.Unsafe({ $ref: 'Event#', description: 'The overlapping event' }),
  },
};

const pascal = (code: string) =>
  code.replace(/(^|_)([a-z])/g, (_, __: string, c: string) => c.toUpperCase());

/** The `$id` of a code's problem schema, e.g. `CapacityExceededProblem`. */
export const problemSchemaId = (code: ProblemCode): string => `${pascal(code)}Problem`;

/** Every code's problem schema, named, to register once at the root. */
export function problemSchemas(): TSchema[] {
  return (Object.keys(problemCodes) as ProblemCode[]).map((code) => {
    const { status, title } = problemCodes[code];
    return Type.Object(
      {
        type: Type.String(),
        title: Type.String({ examples: [title] }),
        status: Type.Literal(status),
        detail: Type.String(),
        code: Type.Literal(code),
        requestId: Type.Optional(Type.String()),
        errors: Type.Optional(FieldErrors),
        ...Object.fromEntries(
          Object.entries(MEMBERS[code] ?? {}).map(([name, schema]) => [
            name,
            Type.Optional(schema),
          ]),
        ),
      },
      { $id: problemSchemaId(code), additionalProperties: true, description: title },
    );
  });
}
