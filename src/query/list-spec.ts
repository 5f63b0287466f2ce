/**
 * A resource's list spec derived from its object schema: the resource names which fields
 * are filterable and the column each reads (identifiers only from code), and the schema
 * supplies the rest, so the field's type, its enum values and how to read it from an API
 * object (for the reference evaluator) are written once, in the schema.
 *
 * Type rules, from the JSON schema of the field: a reference `{id, ...}` or a string with the id
 * pattern is `id`; `format: date` is `date`, `format: date-time` is `datetime`; `enum` (or
 * a union of constants) is `enum`; integer, number, boolean as such; an array of ids is
 * `id-array`; any other string is `string`. A field whose schema says nothing usable is a
 * programming error, thrown when the spec is defined (at import).
 *
 * A resource with a `createdAt` field lists in creation order: `(createdAt, id)`
 * (docs/query-language.md, "Creation order").
 */
import type {
  FieldSpec,
  FieldType,
  ItemGroupSpec,
  OperatorName,
  ResourceSpec,
  SqlSource,
} from './types.js';

/** The JSON-schema keywords the derivation reads (TypeBox schemas are plain JSON schema). */
interface Node {
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Node[];
  items?: Node;
  properties?: Record<string, Node>;
}

export interface ColumnOptions {
  /** The column (of the resource's table, or of the item table for item fields). */
  readonly sql: SqlSource;
  readonly sortable?: boolean;
  /** The same value copied onto the item rows: lets filters use the items' indexes. */
  readonly itemSql?: string;
  /** Only these of the type's operators (when no index serves the others). */
  readonly operators?: readonly OperatorName[];
  /**
   * For an array of objects that each hold a reference (an event's `guides`,
   * `[{status, guide: {id}}]`): the key of that reference. The field is then the list of
   * those ids.
   */
  readonly element?: string;
}

export interface ListSpecDefinition {
  readonly resource: string;
  readonly table: string;
  readonly alias: string;
  /** Filterable fields, in the order docs and errors list them: name -> column. */
  readonly fields: Readonly<Record<string, string | ColumnOptions>>;
  /** The item group (`items.*` fields), evaluated per item. */
  readonly items?: Omit<ItemGroupSpec, 'read'>;
  /**
   * Fields whose equality filter narrows the list to rows an index walks newest first (a
   * seller's orders): beside one, `contains` is checked on each row walked instead of being
   * offered to the trigram index, which PostgreSQL would take and regret (docs/performance.md).
   */
  readonly narrowedBy?: readonly string[];
  /**
   * Fields whose equality filter picks a few rows through an index of their own (an
   * experience's departures by `events_experience_start`): beside one, the caller's scope
   * is checked on each row picked instead of being offered to the planner as an index
   * condition. A prepared page's generic plan otherwise prices the scope's index and the
   * field's alike (both clamp to one row) and may walk the seller's (docs/performance.md).
   */
  readonly picksRows?: readonly string[];
  /**
   * Fields one of whose equality filters the list needs (400 `invalid_parameter` without
   * one): a list no index can serve as a whole (guest types, unnested from each
   * experience's jsonb) is answered only for what one of these narrows it to.
   */
  readonly requiresOneOf?: readonly string[];
}

/** The 24-hex id pattern, as the shared `Id` schema declares it. */
const ID_PATTERN = '^[0-9a-f]{24}$';

function withoutNull(node: Node): Node {
  if (Array.isArray(node.type)) {
    const types = node.type.filter((t) => t !== 'null');
    return { ...node, type: types.length === 1 ? types[0] : types };
  }
  if (node.anyOf) {
    const rest = node.anyOf.filter((n) => n.type !== 'null');
    if (rest.length === 1) return withoutNull(rest[0]!);
  }
  return node;
}

const isIdString = (node: Node): boolean => node.type === 'string' && node.pattern === ID_PATTERN;

/** An object identified by an id (`{id}`, or `{id, name, ...}`): filtered by that id. */
const isReference = (node: Node): boolean =>
  node.type === 'object' &&
  node.properties?.id !== undefined &&
  isIdString(withoutNull(node.properties.id));

function enumValues(node: Node): string[] | undefined {
  if (node.enum) return node.enum.map(String);
  if (node.anyOf && node.anyOf.every((n) => n.const !== undefined)) {
    return node.anyOf.map((n) => String(n.const));
  }
  return undefined;
}

/** The query-language type of a schema node, or undefined when it has none. */
export function fieldTypeOf(
  schema: object,
): { type: FieldType; enumValues?: string[] } | undefined {
  const node = withoutNull(schema);
  if (isReference(node) || isIdString(node)) return { type: 'id' };
  const values = enumValues(node);
  if (values) return { type: 'enum', enumValues: values };
  if (node.type === 'string') {
    if (node.format === 'date') return { type: 'date' };
    if (node.format === 'date-time') return { type: 'datetime' };
    return { type: 'string' };
  }
  if (node.type === 'integer') return { type: 'integer' };
  if (node.type === 'number') return { type: 'number' };
  if (node.type === 'boolean') return { type: 'boolean' };
  if (node.type === 'array' && node.items) {
    const inner = withoutNull(node.items);
    if (isIdString(inner) || isReference(inner)) return { type: 'id-array' };
  }
  return undefined;
}

/** How to read the field's value from an API object (a reference reads as its id). */
function reader(node: Node, key: string): (object: Record<string, unknown>) => unknown {
  const bare = withoutNull(node);
  if (isReference(bare)) {
    return (object) => {
      const value = object[key] as { id?: unknown } | null | undefined;
      return value && typeof value === 'object' ? (value.id ?? null) : null;
    };
  }
  if (bare.type === 'array' && bare.items && isReference(withoutNull(bare.items))) {
    return (object) => ((object[key] as { id: unknown }[] | undefined) ?? []).map((r) => r.id);
  }

  return (object) => object[key];
}

/** An array of objects each holding a reference at `element`: a list of ids. */
function referenceList(
  node: Node,
  element: string,
  name: string,
): { type: FieldType; enumValues?: string[] } {
  const items = withoutNull(node).items;
  const held = items && withoutNull(items).properties?.[element];
  if (!held || !isReference(withoutNull(held)))
    throw new Error(`list spec: ${name} holds no reference at ${element}`);
  return { type: 'id-array' };
}

const elementReader =
  (key: string, element: string) =>
  (object: Record<string, unknown>): unknown =>
    ((object[key] as Record<string, { id: unknown }>[] | undefined) ?? []).map(
      (entry) => entry[element]!.id,
    );

function propertyOf(node: Node, key: string, path: string): Node {
  const property = withoutNull(node).properties?.[key];
  if (!property) throw new Error(`list spec: the schema has no field ${path}`);
  return property;
}

export function defineListSpec(schema: object, definition: ListSpecDefinition): ResourceSpec {
  const root = schema as Node;
  const items = definition.items;
  const fields: FieldSpec[] = Object.entries(definition.fields).map(([name, column]) => {
    const options: ColumnOptions = typeof column === 'string' ? { sql: column } : column;
    const item = items !== undefined && name.startsWith(`${items.prefix}.`);
    const key = item ? name.slice(items.prefix.length + 1) : name;
    const owner = item ? withoutNull(propertyOf(root, items.prefix, name)).items : root;
    if (!owner) throw new Error(`list spec: ${items?.prefix} is not an array of items`);
    const node = propertyOf(owner, key, name);
    const typed = options.element ? referenceList(node, options.element, name) : fieldTypeOf(node);
    if (!typed) throw new Error(`list spec: cannot tell the type of ${name} from its schema`);
    return {
      name,
      type: typed.type,
      ...(typed.enumValues ? { enumValues: typed.enumValues } : {}),
      sql: options.sql,
      read: options.element ? elementReader(key, options.element) : reader(node, key),
      ...(options.sortable ? { sortable: true } : {}),
      ...(item ? { item: true } : {}),
      ...(options.itemSql ? { itemSql: options.itemSql } : {}),
      ...(options.operators ? { operators: options.operators } : {}),
    };
  });
  const created = fields.find((f) => f.name === 'createdAt' && f.type === 'datetime');
  return {
    resource: definition.resource,
    table: definition.table,
    alias: definition.alias,
    fields,
    ...(created ? { created } : {}),
    ...(definition.narrowedBy ? { narrowedBy: definition.narrowedBy } : {}),
    ...(definition.picksRows ? { picksRows: definition.picksRows } : {}),
    ...(definition.requiresOneOf ? { requiresOneOf: definition.requiresOneOf } : {}),
    ...(items
      ? {
          items: {
            ...items,
            read: (object: Record<string, unknown>) =>
              (object[items.prefix] as Record<string, unknown>[] | undefined) ?? [],
          },
        }
      : {}),
  };
}
