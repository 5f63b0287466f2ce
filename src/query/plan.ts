/**
 * Stage 2, plan: the AST checked against a resource's field spec. Unknown fields, operators
 * that do not fit the field's type, malformed values, wrong value counts, bad paging and
 * unsortable sorts are all refused here with an error naming the parameter (and, when a list
 * is run, a list without the narrowing filter its spec requires).
 */
import { QueryError } from './errors.js';
import { fieldOperators, operators } from './operators.js';
import type {
  FieldSpec,
  ParsedQuery,
  PlannedFilter,
  QueryPlan,
  ResourceSpec,
  SortKey,
  Value,
} from './types.js';
import { clip, coerceValue } from './values.js';

export const PAGING = { defaultLimit: 20, maxLimit: 100, maxSkip: 100_000, maxListValues: 100 };

function field(spec: ResourceSpec, name: string): FieldSpec | undefined {
  return spec.fields.find((f) => f.name === name);
}

export function idField(spec: ResourceSpec): FieldSpec {
  const id = field(spec, 'id');
  if (!id) throw new Error(`${spec.resource} has no id field`);
  return id;
}

function values(filter: ParsedQuery['filters'][number], spec: FieldSpec): Value[] {
  const { parameter, raw, operator } = filter;
  const def = operators[operator];
  if (operator === 'exists') {
    if (raw !== 'true' && raw !== 'false') {
      throw new QueryError('invalid_value', parameter, 'exists takes true or false.');
    }
    return [raw === 'true'];
  }
  if (def.arity === 'one') return [coerceValue(spec, raw, parameter)];
  const parts = raw.split(',');
  if (def.arity === 'pair' && parts.length !== 2) {
    throw new QueryError(
      'wrong_value_count',
      parameter,
      `${operator} takes exactly two comma-separated values (from,to); got ${parts.length}.`,
    );
  }
  if (parts.length > PAGING.maxListValues) {
    throw new QueryError('wrong_value_count', parameter, `At most ${PAGING.maxListValues} values.`);
  }
  return parts.map((part) => coerceValue(spec, part, parameter));
}

function integerParameter(name: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) {
    throw new QueryError(
      'invalid_paging',
      name,
      `${name} must be a whole number from ${min} to ${max}.`,
    );
  }
  return n;
}

/**
 * Refuses a plan of a list that needs an equality (or `in`) filter on one of some fields
 * (ListSpecDefinition.requiresOneOf) without one. Checked when a list is run (run.ts), not
 * in `plan`: the SQL of such a list can still be built and explained without one.
 */
export function requireNarrowing(spec: ResourceSpec, filters: readonly PlannedFilter[]): void {
  const required = spec.requiresOneOf;
  if (!required?.length) return;
  const narrows = (f: PlannedFilter) => f.operator === 'equals' || f.operator === 'in';
  if (filters.some((f) => narrows(f) && required.includes(f.field.name))) return;
  throw new QueryError(
    'invalid_parameter',
    required[0]!,
    `${spec.resource} are listed for one ${required.join(' or one ')} at a time: add ${required.map((name) => `${name}=<id>`).join(' or ')}.`,
  );
}

function sortKeys(
  spec: ResourceSpec,
  raw: string | undefined,
): { keys: SortKey[]; keyset: boolean } {
  const id = idField(spec);
  const sortable = spec.fields.filter((f) => f.sortable && !f.item);
  const text = raw ?? '-id';
  const direction = text.startsWith('-') ? 'desc' : 'asc';
  const name = text.replace(/^[-+]/, '');
  const chosen = sortable.find((f) => f.name === name);
  if (!chosen) {
    throw new QueryError(
      'invalid_sort',
      'sort',
      `Cannot sort by "${clip(name, 40)}"; sortable: ${sortable.map((f) => f.name).join(', ')} (prefix - for descending).`,
    );
  }
  // The id's order is creation order: (createdAt, id) where the resource has a createdAt.
  const keys: SortKey[] = [
    chosen === id && spec.created
      ? { field: chosen, direction, created: spec.created }
      : { field: chosen, direction },
  ];
  if (chosen !== id) keys.push({ field: id, direction });
  return { keys, keyset: chosen === id && direction === 'desc' };
}

export function plan(parsed: ParsedQuery, spec: ResourceSpec): QueryPlan {
  const filters: PlannedFilter[] = [];
  const itemFilters: PlannedFilter[] = [];
  for (const filter of parsed.filters) {
    const target = field(spec, filter.field);
    if (!target) {
      throw new QueryError(
        'unknown_field',
        filter.parameter,
        `${spec.resource} cannot be filtered by "${clip(filter.field, 40)}"; filterable fields: ${spec.fields.map((f) => f.name).join(', ')}.`,
      );
    }
    if (!fieldOperators(target).includes(filter.operator)) {
      throw new QueryError(
        'operator_not_allowed',
        filter.parameter,
        `${filter.operator} does not apply to ${target.name} (${target.type}); use one of: ${fieldOperators(target).join(', ')}.`,
      );
    }
    const planned = {
      parameter: filter.parameter,
      field: target,
      operator: filter.operator,
      values: values(filter, target),
    };
    (target.item ? itemFilters : filters).push(planned);
  }
  const { keys, keyset } = sortKeys(spec, parsed.sort);
  if (parsed.count !== undefined && parsed.count !== 'true' && parsed.count !== 'false') {
    throw new QueryError('invalid_parameter', 'count', 'count takes true or false.');
  }
  return {
    filters,
    itemFilters,
    sort: keys,
    limit:
      parsed.limit === undefined
        ? PAGING.defaultLimit
        : integerParameter('limit', parsed.limit, 1, PAGING.maxLimit),
    skip:
      parsed.skip === undefined
        ? 0
        : integerParameter(parsed.skipParameter ?? 'skip', parsed.skip, 0, PAGING.maxSkip),
    count: parsed.count === 'true',
    keyset,
  };
}
