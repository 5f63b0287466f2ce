/**
 * Views PostgreSQL builds as JSON text (issue 27, docs/performance.md "Views built by
 * PostgreSQL"). The TypeBox schema of an API object stays the one definition of its shape:
 * `jsonObject` turns it into a `json_build_object(...)` expression with the schema's keys in
 * the schema's order (the order fast-json-stringify writes them), each key's value an SQL
 * expression the caller gives, a literal's (`object: 'order'`) taken from the schema. A key
 * without an expression, or an expression for no key, is an error when the module loads, so
 * a field added to the schema cannot silently go missing from the SQL.
 *
 * `fromJsonb` renders a jsonb value (a jsonb column holding the view's nested objects)
 * through a schema the same way: declared keys only, in order, as the serializer keeps them.
 *
 * The two renderings of a view (this one, and the service's mapping of rows for writes and
 * older versions) differ only in whitespace; test/http/order-json.test.ts holds them to
 * the same JSON value.
 */
import type { TObject, TSchema } from 'typebox';

type Props<T extends TObject> = T['properties'];
type LiteralKeys<T extends TObject> = {
  [K in keyof Props<T>]: Props<T>[K] extends { const: unknown } ? K : never;
}[keyof Props<T>];

/** One SQL expression per property of the schema; literals may be left out. */
export type JsonFields<T extends TObject> = {
  [K in Exclude<keyof Props<T>, LiteralKeys<T>>]: string;
} & { [K in LiteralKeys<T>]?: string };

/** json_build_object takes at most 100 arguments: 50 keys. */
const MAX_KEYS = 50;

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** A literal's value as SQL, or undefined for a schema that is not a literal. */
function literal(schema: TSchema): string | undefined {
  const value = (schema as { const?: unknown }).const;
  if (typeof value === 'string') return `${quote(value)}::text`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** `json_build_object` over the schema's properties, in order, from `fields`. */
export function jsonObject<T extends TObject>(schema: T, fields: JsonFields<T>): string {
  return buildObject(schema.properties, fields);
}

function buildObject(
  properties: Record<string, TSchema>,
  fields: Record<string, string | undefined>,
): string {
  const stray = Object.keys(fields).filter((key) => !(key in properties));
  if (stray.length > 0) throw new Error(`json view: no property named ${stray.join(', ')}`);
  const keys = Object.keys(properties);
  if (keys.length > MAX_KEYS) throw new Error(`json view: more than ${MAX_KEYS} properties`);
  const pairs = keys.map((key) => {
    const value = fields[key] ?? literal(properties[key]!);
    if (value === undefined) throw new Error(`json view: no SQL for property "${key}"`);
    return `${quote(key)}, ${value}`;
  });
  return `json_build_object(${pairs.join(', ')})`;
}

interface Shape {
  type?: string | string[];
  properties?: Record<string, TSchema>;
  items?: TSchema;
}

/**
 * The jsonb value `value` as `schema` shows it: an object keeps the declared keys (a
 * missing one is null), an array maps its elements in order (anything else is `[]`), a
 * scalar is the value itself. `depth` names the aliases of nested arrays apart.
 */
export function fromJsonb(schema: TSchema, value: string, depth = 0): string {
  const shape = schema as Shape;
  const types = [shape.type].flat();
  if (types.includes('object') && shape.properties) {
    const properties = shape.properties;
    const fields = Object.fromEntries(
      Object.keys(properties).map((key) => [
        key,
        fromJsonb(properties[key]!, `(${value} -> ${quote(key)})`, depth + 1),
      ]),
    );
    return `case when jsonb_typeof(${value}) = 'object' then ${buildObject(properties, fields)} end`;
  }
  if (types.includes('array') && shape.items) {
    const [element, place] = [`e${depth}`, `n${depth}`];
    const array = `case when jsonb_typeof(${value}) = 'array' then ${value} else '[]'::jsonb end`;
    const items = `(select json_agg(${fromJsonb(shape.items, element, depth + 1)} order by ${place}) from jsonb_array_elements(${array}) with ordinality as a${depth}(${element}, ${place}))`;
    // An empty array, the usual notes, adjustments and plain seats, skips the subquery:
    // each is a function scan and an aggregate per row, 4-12 % of an order page's
    // PostgreSQL time when run for nothing (docs/performance.md, issue 27,
    // twenty-first pass).
    return `case when ${value} = '[]'::jsonb then '[]'::json else coalesce(${items}, '[]'::json) end`;
  }
  return value;
}

/** Shared renderings of the small pieces every view has (modules/shared/views.ts in SQL). */
export const sqlViews = {
  /** `iso()`: UTC with milliseconds and `Z` (the columns hold milliseconds). */
  iso: (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  /** `ref()`: `{id}`. */
  ref: (column: string) => `json_build_object('id', ${column})`,
  /** `refOrNull()`: `{id}`, or null. */
  refOrNull: (column: string) =>
    `case when ${column} is null then null else json_build_object('id', ${column}) end`,
};
