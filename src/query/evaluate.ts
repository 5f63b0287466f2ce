/**
 * Stage 4, evaluate: the meaning of a plan as a plain JavaScript predicate and ordering
 * over API objects. This is the executable definition of the language; tests hold the
 * database to it (same rows, same order, across pages).
 */
import {
  CREATION_COMPARISONS,
  compareKeys,
  comparesCreation,
  idSeconds,
  type CreationKey,
} from './creation-order.js';
import { operators } from './operators.js';
import type { FieldSpec, PlannedFilter, QueryPlan, ResourceSpec, Scope } from './types.js';

type Obj = Record<string, unknown>;

/** The creation key of the object an id names, when the caller can see one. */
export type Anchors = (id: string) => CreationKey | undefined;

const holds = (filter: PlannedFilter, object: Obj): boolean =>
  operators[filter.operator].evaluate(filter.field.read(object), filter.values, filter.field.type);

const creationKey = (created: FieldSpec, object: Obj): CreationKey => [
  Date.parse(created.read(object) as string),
  object.id as string,
];

/** An id compared in creation order (creation-order.ts). */
function holdsCreation(
  created: FieldSpec,
  filter: PlannedFilter,
  object: Obj,
  anchors: Anchors,
): boolean {
  const key = creationKey(created, object);
  const anchor = (id: string): CreationKey => anchors(id) ?? [idSeconds(id) * 1000, id];
  const [a, b] = filter.values as string[];
  if (filter.operator === 'range')
    return compareKeys(key, anchor(a!)) >= 0 && compareKeys(key, anchor(b!)) <= 0;
  const c = compareKeys(key, anchor(a!));
  switch (CREATION_COMPARISONS[filter.operator]) {
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    default:
      return c >= 0;
  }
}

/** The creation keys of `objects` the caller can see, by id. */
function anchorsOf(spec: ResourceSpec, scope: Scope, objects: readonly Obj[]): Anchors {
  const created = spec.created;
  if (!created) return () => undefined;
  const keys = new Map<string, CreationKey>();
  for (const o of objects)
    if (inScope(spec, scope, o)) keys.set(o.id as string, creationKey(created, o));
  return (id) => keys.get(id);
}

export function inScope(spec: ResourceSpec, scope: Scope, object: Obj): boolean {
  if (scope === 'all') return true;
  return scope.anyOf.some(({ field: name, in: values }) => {
    const field = spec.fields.find((f) => f.name === name)!;
    return operators.in.evaluate(field.read(object), values, field.type);
  });
}

/**
 * Whether `object` is in the list. `anchors` finds the objects that ids in creation-order
 * comparisons name (`evaluate` passes every object the caller can see); without it, such an
 * id cuts at its second.
 */
export function matches(
  spec: ResourceSpec,
  plan: QueryPlan,
  scope: Scope,
  object: Obj,
  anchors: Anchors = () => undefined,
): boolean {
  if (!inScope(spec, scope, object)) return false;
  const created = spec.created;
  const passes = (f: PlannedFilter) =>
    created && comparesCreation(spec, f)
      ? holdsCreation(created, f, object, anchors)
      : holds(f, object);
  if (!plan.filters.every(passes)) return false;
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

/**
 * PostgreSQL's order: nulls last when ascending, first when descending; the id's order is
 * creation order.
 */
export function comparator(plan: QueryPlan): (a: Obj, b: Obj) => number {
  return (a, b) => {
    for (const { field, direction, created } of plan.sort) {
      if (created) {
        const c = compareKeys(creationKey(created, a), creationKey(created, b));
        if (c !== 0) return direction === 'asc' ? c : -c;
        continue;
      }
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
  const anchors = anchorsOf(spec, scope, objects);
  const all = objects.filter((o) => matches(spec, plan, scope, o, anchors)).sort(comparator(plan));
  const page = all.slice(plan.skip, plan.skip + plan.limit);
  return { page, hasMore: all.length > plan.skip + plan.limit, total: all.length };
}
