/**
 * Stage 3, compile: a plan to SQL fragments for Kysely (`where`, `order by`, limit and
 * offset). Identifiers come only from the resource spec; every filter value is a bound
 * parameter (the page's limit, a bounded integer, is written into the SQL: db/list-source.ts).
 * Item filters become one EXISTS over the item table, so an order matches when one item
 * satisfies all of them, and appears once.
 */
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { CREATION_COMPARISONS, comparesCreation, idSeconds } from './creation-order.js';
import { fragment, joined } from './fragment.js';
import { COMPARISON_SQL, DIRECTION_SQL, containsRowCheck, operators } from './operators.js';
import type { FieldSpec, PlannedFilter, QueryPlan, ResourceSpec, Scope } from './types.js';
import { utcIso } from '../domain/instant-text.js';

export interface CompiledList {
  where: Expression<SqlBool>;
  orderBy: Expression<unknown>;
  /** One more than the page size: the extra row says whether there is a next page. */
  limit: number;
  offset: number;
  /**
   * Whether one plan serves every value of this query's shape, so that its page query may
   * be a prepared statement (db/prepared.ts): false when a filter's best plan depends on its
   * value (`planDependsOnValue`: substring matches).
   */
  prepare: boolean;
}

/**
 * Fragments that hold no value are made once and shared by every request: a fragment is
 * immutable, and making one (Kysely parses a reference's text and freezes each node it
 * builds) was a tenth of a list's query stage (issue 27, fourteenth pass). Their names come
 * only from the resource specs, so these caches hold a few hundred entries at most.
 */
const references = new Map<string, RawBuilder<unknown>>();
const expressions = new WeakMap<
  (alias: string) => RawBuilder<unknown>,
  Map<string, RawBuilder<unknown>>
>();

/** `alias.column`, made once. */
function ref(path: string): RawBuilder<unknown> {
  let made = references.get(path);
  if (!made) references.set(path, (made = sql.ref(path)));
  return made;
}

function column(field: FieldSpec, alias: string): RawBuilder<unknown> {
  if (typeof field.sql === 'string') return ref(`${alias}.${field.sql}`);
  let byAlias = expressions.get(field.sql);
  if (!byAlias) expressions.set(field.sql, (byAlias = new Map<string, RawBuilder<unknown>>()));
  let made = byAlias.get(alias);
  if (!made) byAlias.set(alias, (made = field.sql(alias)));
  return made;
}

/** The alias of the row an id in a creation-order comparison names. */
const ANCHOR = 'anchor';

/**
 * An id compared by creation order: `(created, id)` against the named object's, or, for an
 * id that names nothing the caller can see, against the second the id holds. So the
 * keyset link `id[lt]=<last id>` means "made before that object", and a made-up id still
 * cuts at its second.
 */
function creationCondition(
  spec: ResourceSpec,
  created: FieldSpec,
  filter: PlannedFilter,
  scope: Scope,
): Expression<SqlBool> {
  const key = fragment`(${column(created, spec.alias)}, ${ref(`${spec.alias}.id`)})`;
  const anchor = (id: string) => {
    const visible = scopeCondition(spec, scope, ANCHOR, false);
    const named = fragment`(select ${column(created, ANCHOR)} from ${sql.table(spec.table)} as ${sql.id(ANCHOR)} where ${ref(`${ANCHOR}.id`)} = ${id}${visible ? fragment` and ${visible}` : fragment``})`;
    return fragment`(coalesce(${named}, cast(${utcIso(idSeconds(id) * 1000)} as timestamptz)), ${id})`;
  };
  const [a, b] = filter.values as string[];
  if (filter.operator === 'range')
    return fragment<SqlBool>`(${key} >= ${anchor(a!)} and ${key} <= ${anchor(b!)})`;
  return fragment<SqlBool>`${key} ${COMPARISON_SQL[CREATION_COMPARISONS[filter.operator]!]} ${anchor(a!)}`;
}

/** A row filter written as a check on each row walked (`strpos`), never an index condition. */
const checkedOnRow = (filter: PlannedFilter, narrowed: boolean): boolean =>
  narrowed && filter.operator === 'contains';

function condition(filter: PlannedFilter, alias: string, narrowed = false): Expression<SqlBool> {
  if (checkedOnRow(filter, narrowed))
    return containsRowCheck(column(filter.field, alias), filter.values[0] as string);
  return operators[filter.operator].compile(
    column(filter.field, alias),
    filter.values,
    filter.field.type,
  );
}

const AND = fragment` and `;
const OR = fragment` or `;
const and = (parts: Expression<SqlBool>[]): Expression<SqlBool> =>
  parts.length === 0 ? fragment<SqlBool>`true` : fragment<SqlBool>`(${joined(parts, AND)})`;
const or = (parts: Expression<SqlBool>[]): Expression<SqlBool> =>
  parts.length === 0 ? fragment<SqlBool>`false` : fragment<SqlBool>`(${joined(parts, OR)})`;

function fieldOf(spec: ResourceSpec, name: string): FieldSpec {
  const found = spec.fields.find((f) => f.name === name);
  if (!found) throw new Error(`${spec.resource} has no field ${name}`);
  return found;
}

/** The authorization filter, on the row (`alias`) or, via copied columns, on its items. */
function scopeCondition(
  spec: ResourceSpec,
  scope: Scope,
  alias: string,
  onItems: boolean,
): Expression<SqlBool> | undefined {
  if (scope === 'all') return undefined;
  const alternatives = scope.anyOf.map(({ field: name, in: values }) => {
    const field = fieldOf(spec, name);
    if (onItems && !field.itemSql) return undefined;
    const target = onItems ? { ...field, sql: field.itemSql! } : field;
    // `in ()` is not SQL; an empty alternative simply matches nothing.
    if (values.length === 0) return fragment<SqlBool>`false`;
    return operators.in.compile(column(target, alias), values, field.type);
  });
  if (alternatives.some((a) => a === undefined)) return undefined;
  return or(alternatives as Expression<SqlBool>[]);
}

/**
 * Whether the filters alone keep rows inside the scope: one of them asks a field for
 * values (equals or in) that a scope alternative allows, so every row they keep is in
 * scope. The scope is then not written at all: repeated, its `or` makes PostgreSQL
 * misjudge how many rows match (350 estimated for 18,390 of a seller's orders) and sort
 * them all instead of walking the seller's index newest first (32 ms against 3.4 ms for a
 * page of 100 at 1,000,000 orders).
 */
function impliesScope(filters: readonly PlannedFilter[], scope: Scope): boolean {
  if (scope === 'all') return true;
  return filters.some(
    (f) =>
      (f.operator === 'equals' || f.operator === 'in') &&
      scope.anyOf.some(
        (alternative) =>
          alternative.field === f.field.name &&
          f.values.every((v) => alternative.in.some((allowed) => String(allowed) === String(v))),
      ),
  );
}

/**
 * Whether a `contains` beside the plan's filters is checked on each row walked. A seller's
 * orders walked newest first find a page of `contains` matches after a few hundred rows at
 * most; the trigram index fetches every match of every seller first (1,000,000 orders:
 * 2.9 ms against 10 ms for "mart", 39 against 456 for "zq").
 */
const isNarrowed = (spec: ResourceSpec, plan: QueryPlan): boolean =>
  equalsOnAny(plan, spec.narrowedBy);

/** Whether the plan has an equality filter on one of `fields`. */
const equalsOnAny = (plan: QueryPlan, fields: readonly string[] | undefined): boolean =>
  plan.filters.some((f) => f.operator === 'equals' && fields?.includes(f.field.name) === true);

export function compileWhere(
  spec: ResourceSpec,
  plan: QueryPlan,
  scope: Scope,
): Expression<SqlBool> {
  const narrowed = isNarrowed(spec, plan);
  const parts = plan.filters.map((f) =>
    spec.created && comparesCreation(spec, f)
      ? creationCondition(spec, spec.created, f, scope)
      : condition(f, spec.alias, narrowed),
  );
  const implied = impliesScope(plan.filters, scope);
  const scoped = implied ? undefined : scopeCondition(spec, scope, spec.alias, false);
  // `is true` keeps the meaning (a row's scope columns are never null) and is no index
  // condition, so the planner finds the rows by the picking field's index.
  if (scoped)
    parts.push(equalsOnAny(plan, spec.picksRows) ? fragment<SqlBool>`(${scoped} is true)` : scoped);
  if (plan.itemFilters.length > 0 && spec.items) {
    const items = spec.items;
    const inner = plan.itemFilters.map((f) => condition(f, items.alias));
    // Conditions on values copied onto items (seller_id) are repeated inside the EXISTS:
    // they are implied by the outer ones, and let the planner use the items' own indexes.
    // (An item's copies always equal its order's: the outer row decides.)
    for (const f of plan.filters) {
      if (f.field.itemSql)
        inner.push(condition({ ...f, field: { ...f.field, sql: f.field.itemSql } }, items.alias));
    }
    // The scope is repeated too, for the same reason, unless the filters imply it: then it
    // would only stop an index-only read of the items (seller, arrival, order).
    const itemScope = implied ? undefined : scopeCondition(spec, scope, items.alias, true);
    if (itemScope) inner.push(itemScope);
    parts.push(
      fragment<SqlBool>`exists (select 1 from ${sql.table(items.table)} as ${sql.id(items.alias)} where ${ref(`${items.alias}.${items.parentColumn}`)} = ${ref(`${spec.alias}.id`)} and ${and(inner)})`,
    );
  }
  return and(parts);
}

/** `field` strictly before `at` (the pollers' horizon, query/run.ts). */
export function compileBelow(spec: ResourceSpec, field: FieldSpec, at: Date): Expression<SqlBool> {
  return fragment<SqlBool>`${column(field, spec.alias)} < ${utcIso(at.getTime())}`;
}

/** Each spec's `order by` fragments, by the sort they write: made once (see `ref`). */
const MAX_SORTS = 256;
const orders = new WeakMap<ResourceSpec, Map<string, Expression<unknown>>>();

export function compileOrder(spec: ResourceSpec, plan: QueryPlan): Expression<unknown> {
  const key = plan.sort
    .map((k) => `${k.created?.name ?? ''} ${k.field.name} ${k.direction}`)
    .join(',');
  let bySort = orders.get(spec);
  if (!bySort) orders.set(spec, (bySort = new Map<string, Expression<unknown>>()));
  let made = bySort.get(key);
  if (!made) {
    made = orderOf(spec, plan);
    // Sorts are allow-listed fields, but their combinations are many: the common ones kept.
    if (bySort.size < MAX_SORTS) bySort.set(key, made);
  }
  return made;
}

function orderOf(spec: ResourceSpec, plan: QueryPlan): Expression<unknown> {
  return joined(
    plan.sort.flatMap((key) => [
      ...(key.created
        ? [fragment`${column(key.created, spec.alias)} ${DIRECTION_SQL[key.direction]}`]
        : []),
      fragment`${column(key.field, spec.alias)} ${DIRECTION_SQL[key.direction]}`,
    ]),
  );
}

export function compile(spec: ResourceSpec, plan: QueryPlan, scope: Scope): CompiledList {
  const narrowed = isNarrowed(spec, plan);
  return {
    where: compileWhere(spec, plan, scope),
    orderBy: compileOrder(spec, plan),
    limit: plan.limit + 1,
    offset: plan.skip,
    // A row check's plan is the same for every value; item filters are never row checks.
    prepare:
      plan.filters.every(
        (f) => !operators[f.operator].planDependsOnValue || checkedOnRow(f, narrowed),
      ) && plan.itemFilters.every((f) => !operators[f.operator].planDependsOnValue),
  };
}
