/**
 * Stage 4, evaluate: the meaning of a plan as a plain JavaScript predicate and ordering
 * over API objects. This is the executable definition of the language; tests hold the
 * database to it (same rows, same order, across pages).
 */
import { operators } from './operators.js';
import type { FieldSpec, PlannedFilter, QueryPlan, ResourceSpec, Scope } from './types.js';

type Obj = Record<string, unknown>;

const holds = (filter: PlannedFilter, object: Obj): boolean =>
  operators[filter.operator].evaluate(filter.field.read(object), filter.values, filter.field.type);

export function inScope(spec: ResourceSpec, scope: Scope, object: Obj): boolean {
  if (scope === 'all') return true;
  return scope.anyOf.some(({ field: name, in: values }) => {
    const field = spec.fields.find((f) => f.name === name)!;
    return operators.in.evaluate(field.read(object), values, field.type);
  });
}

export function matches(spec: ResourceSpec, plan: QueryPlan, scope: Scope, object: Obj): boolean {
  if (!inScope(spec, scope, object)) return false;
  if (!plan.filters.every((f) => holds(f, object))) return false;
  if (plan.itemFilters.length === 0 || !spec.items) return true;
  return spec.items.read(object).some((item) => plan.itemFilters.every((f) => holds(f, item)));
}

function sortValue(field: FieldSpec, object: Obj): number | string | boolean | null {
  const value = field.read(object);
  if (value === null || value === undefined) return null;
  return field.type === 'datetime'
    ? Date.parse(value as string)
    : (value as number | string | boolean);
}

/** PostgreSQL's order: nulls last when ascending, first when descending. */
export function comparator(plan: QueryPlan): (a: Obj, b: Obj) => number {
  return (a, b) => {
    for (const { field, direction } of plan.sort) {
      const x = sortValue(field, a);
      const y = sortValue(field, b);
      if (x === y) continue;
      let c: number;
      if (x === null) c = 1;
      else if (y === null) c = -1;
      else c = x < y ? -1 : 1;
      return direction === 'asc' ? c : -c;
    }
    return 0;
  };
}

export interface Evaluated<T extends Obj> {
  page: T[];
  hasMore: boolean;
  total: number;
}

/** What a list request must return, computed from all objects in memory. */
export function evaluate<T extends Obj>(
  spec: ResourceSpec,
  plan: QueryPlan,
  scope: Scope,
  objects: T[],
): Evaluated<T> {
  const all = objects.filter((o) => matches(spec, plan, scope, o)).sort(comparator(plan));
  const page = all.slice(plan.skip, plan.skip + plan.limit);
  return { page, hasMore: all.length > plan.skip + plan.limit, total: all.length };
}
