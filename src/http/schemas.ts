/**
 * Schemas shared by every route: ids, references, the problem body, and the error
 * responses a route documents.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { ID_PATTERN } from '../db/ids.js';
import { problemCodes, problemSchemaId, type ProblemCode } from './problems.js';

export const Id = Type.String({
  pattern: ID_PATTERN,
  description: '24 lowercase hex characters',
  examples: ['5e1f3c9a2b4d6e8f0a1b2c3d'],
});

export const IdParams = Type.Object({ id: Id });

export const Ref = Type.Object({ id: Id }, { additionalProperties: false });

export const Timestamp = Type.String({ format: 'date-time' });

/**
 * A typed reference to a named schema: the OpenAPI document shows `$ref` to the component,
 * and the route's handler is type-checked against the schema's static type.
 */
export function refTo<T extends TSchema>(schema: T) {
  const id = (schema as { $id?: string }).$id;
  if (!id) throw new Error('refTo needs a schema with an $id');
  return Type.Unsafe<Static<T>>({ $ref: `${id}#` });
}

/**
 * Documents the error responses of a route by code: statuses are taken from the catalogue,
 * each status lists the named problem schema of every code it may carry, and every route
 * also documents 429 and 500.
 */
export function errorResponses(...codes: ProblemCode[]): Record<number, TSchema> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of new Set([...codes, 'rate_limited', 'internal_error'] as ProblemCode[])) {
    const { status } = problemCodes[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => {
      const refs = list.map((code) => ({ $ref: `${problemSchemaId(code)}#` }));
      const description = `Problem: ${list.join(', ')}`;
      const schema = refs.length === 1 ? refs[0] : { oneOf: refs };
      return [
        status,
        Type.Unsafe({ description, content: { 'application/problem+json': { schema } } }),
      ];
    }),
  );
}

/** A value that may be null, in the form fast-json-stringify serializes fastest. */
export function Nullable<T extends TSchema>(schema: T) {
  const type = (schema as { type?: string }).type;
  return Type.Unsafe<Static<T> | null>(
    type ? { ...schema, type: [type, 'null'] } : Type.Union([schema, Type.Null()]),
  );
}

/** `paging` of every list: the next page's relative URL, and the total when asked for. */
export const Paging = Type.Object(
  {
    next: Nullable(Type.String({ description: 'Relative URL of the next page, or null' })),
    total: Type.Optional(Type.Integer({ description: 'With count=true' })),
  },
  { $id: 'Paging' },
);

/**
 * The envelope of a list of `item` (a named schema): `{data, paging}`, itself named
 * `<Item>List` so clients get one type per list.
 */
export function listOf<T extends TSchema>(item: T) {
  const id = (item as { $id?: string }).$id;
  if (!id) throw new Error('listOf needs a schema with an $id');
  return Type.Object(
    { data: Type.Array(refTo(item)), paging: refTo(Paging) },
    { $id: `${id}List`, description: `A page of ${id} objects` },
  );
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
    offset: Type.Optional(Type.Unsafe({ description: 'Another name for skip' })),
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
