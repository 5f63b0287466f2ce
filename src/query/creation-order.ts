/**
 * Creation order, shared by `compile` and `evaluate`: a resource with a creation time lists
 * by `(createdAt, id)`, and its own id compared with gt, gte, lt, lte or range is compared
 * in that order, against the named object's `(createdAt, id)`, or, when the id names no
 * object the caller can see, against the second the id begins with (ids are 4 bytes of
 * seconds, then random). See docs/query-language.md, "Creation order".
 */
import type { OperatorName, PlannedFilter, ResourceSpec } from './types.js';

export const CREATION_COMPARISONS: Partial<Record<OperatorName, '<' | '<=' | '>' | '>='>> = {
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
};

/** Whether `filter` compares the resource's own id, which then means creation order. */
export function comparesCreation(spec: ResourceSpec, filter: PlannedFilter): boolean {
  return (
    spec.created !== undefined &&
    filter.field.name === 'id' &&
    !filter.field.item &&
    (filter.operator === 'range' || CREATION_COMPARISONS[filter.operator] !== undefined)
  );
}

/** The creation second an id begins with. */
export const idSeconds = (id: string): number => parseInt(id.slice(0, 8), 16);

/** A creation key: epoch milliseconds, then the id. */
export type CreationKey = readonly [number, string];

export function compareKeys(a: CreationKey, b: CreationKey): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}
