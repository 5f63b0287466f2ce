/**
 * Types shared by the stages of the query language: the field specs a resource declares,
 * the AST `parse` produces, and the plan `plan` produces.
 */
import type { RawBuilder } from 'kysely';

export const FIELD_TYPES = [
  'id',
  'string',
  'date',
  'datetime',
  'number',
  'integer',
  'boolean',
  'enum',
  'id-array',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const OPERATOR_NAMES = [
  'equals',
  'notEqual',
  'gt',
  'gte',
  'lt',
  'lte',
  'range',
  'in',
  'nin',
  'startsWith',
  'endsWith',
  'contains',
  'doesNotContain',
  'exists',
] as const;
export type OperatorName = (typeof OPERATOR_NAMES)[number];

/** A coerced filter value: dates stay `YYYY-MM-DD`, datetimes become epoch milliseconds. */
export type Value = string | number | boolean;

/**
 * How a field is reached in SQL: a column of the row's table, or an expression over it. An
 * expression depends on the alias only: it is made once per alias and shared by every
 * request (query/compile.ts).
 */
export type SqlSource = string | ((alias: string) => RawBuilder<unknown>);

export interface FieldSpec {
  /** The name clients use: `customerName`, `items.arrival`. */
  readonly name: string;
  readonly type: FieldType;
  readonly sql: SqlSource;
  /** Reads the field from the API object (or from one item, for item fields). */
  readonly read: (object: Record<string, unknown>) => unknown;
  readonly enumValues?: readonly string[];
  readonly sortable?: boolean;
  /** Fields of the item group (`items.*`) are evaluated per item. */
  readonly item?: boolean;
  /** The same value copied onto the item rows (e.g. `seller_id`): lets filters use item indexes. */
  readonly itemSql?: string;
  /** Only these of the type's operators (when no index serves the others). */
  readonly operators?: readonly OperatorName[];
}

export interface ItemGroupSpec {
  /** Prefix of the item fields, e.g. `items`. */
  readonly prefix: string;
  readonly table: string;
  readonly alias: string;
  /** Item column that references the parent row's id. */
  readonly parentColumn: string;
  readonly read: (object: Record<string, unknown>) => Record<string, unknown>[];
}

export interface ResourceSpec {
  readonly resource: string;
  readonly table: string;
  readonly alias: string;
  readonly fields: readonly FieldSpec[];
  readonly items?: ItemGroupSpec;
  /** See ListSpecDefinition.narrowedBy. */
  readonly narrowedBy?: readonly string[];
  /** See ListSpecDefinition.picksRows. */
  readonly picksRows?: readonly string[];
  /** See ListSpecDefinition.requiresOneOf. */
  readonly requiresOneOf?: readonly string[];
  /**
   * The creation time (the `createdAt` field): with the id, the creation order that the
   * default order, `sort=id` and comparisons of ids follow. Without it, the id alone.
   */
  readonly created?: FieldSpec;
}

// ---- parse ----

export interface FilterNode {
  /** The parameter as written, e.g. `items.arrival[range]`: errors name it. */
  readonly parameter: string;
  readonly field: string;
  readonly operator: OperatorName;
  readonly raw: string;
}

export interface ParsedQuery {
  readonly filters: readonly FilterNode[];
  readonly limit?: string;
  readonly skip?: string;
  /** The name `skip` was given by (`offset` is its synonym), for errors. */
  readonly skipParameter?: 'skip' | 'offset';
  readonly sort?: string;
  readonly count?: string;
}

// ---- plan ----

export interface PlannedFilter {
  readonly parameter: string;
  readonly field: FieldSpec;
  readonly operator: OperatorName;
  readonly values: readonly Value[];
}

export interface SortKey {
  readonly field: FieldSpec;
  readonly direction: 'asc' | 'desc';
  /** Sort by this creation time first, then by `field` (the id): creation order. */
  readonly created?: FieldSpec;
}

export interface QueryPlan {
  /** Filters on the row itself. */
  readonly filters: readonly PlannedFilter[];
  /** Filters on the item group: one item must satisfy all of them together. */
  readonly itemFilters: readonly PlannedFilter[];
  /** The requested order, then id in the same direction as the tie-break (`sort=id`: creation order). */
  readonly sort: readonly SortKey[];
  readonly limit: number;
  readonly skip: number;
  readonly count: boolean;
  /** True in the default order (`-id`): `paging.next` pages by keyset. */
  readonly keyset: boolean;
}

/**
 * Authorization: the rows a caller may see, as alternatives (OR) of "field is one of these
 * values". `'all'` for admins; an empty list sees nothing. ANDed to every query.
 */
export type Scope = 'all' | { readonly anyOf: readonly { field: string; in: readonly Value[] }[] };
