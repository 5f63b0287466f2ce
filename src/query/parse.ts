/**
 * Stage 1, parse: query parameters to an AST of filters (field, operator, raw value) and the
 * paging parameters. Knows the syntax and the operator names, nothing about resources.
 */
import { QueryError } from './errors.js';
import { operators } from './operators.js';
import { OPERATOR_NAMES, type FilterNode, type OperatorName, type ParsedQuery } from './types.js';
import { clip } from './values.js';

/**
 * Query parameters that are never filters. `offset` is `skip` by the name integrations
 * page with (`limit`/`offset`); both at once must agree.
 */
export const RESERVED_PARAMETERS = [
  'limit',
  'skip',
  'offset',
  'sort',
  'count',
  'apiKey',
  'private',
] as const;
type Reserved = (typeof RESERVED_PARAMETERS)[number];

const KEY = /^([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)*)(?:\[([^\]]*)\])?$/;
const MAX_PARAMETERS = 50;

/** How an error names a parameter: shortened, and never as an empty string. */
const named = (key: string): string => (key === '' ? '(empty name)' : clip(key));

const isReserved = (key: string): key is Reserved =>
  (RESERVED_PARAMETERS as readonly string[]).includes(key);

/**
 * Parses query parameters as Fastify delivers them: a repeated parameter arrives as an
 * array (and is refused), everything else as a string.
 */
export function parse(query: Record<string, unknown>): ParsedQuery {
  const entries = Object.entries(query);
  if (entries.length > MAX_PARAMETERS) {
    throw new QueryError('invalid_parameter', 'query', `At most ${MAX_PARAMETERS} parameters.`);
  }
  const filters: FilterNode[] = [];
  const paging: { limit?: string; skip?: string; sort?: string; count?: string } = {};
  for (const [key, value] of entries) {
    if (Array.isArray(value)) {
      throw new QueryError(
        'repeated_parameter',
        named(key),
        'Give this parameter once; for several values use `in` with a comma-separated list.',
      );
    }
    if (typeof value !== 'string') {
      throw new QueryError('invalid_parameter', named(key), 'Expected a single value.');
    }
    if (isReserved(key)) {
      if (key === 'limit' || key === 'skip' || key === 'sort' || key === 'count')
        paging[key] = value;
      continue;
    }
    const match = KEY.exec(key);
    if (!match) {
      throw new QueryError(
        'invalid_parameter',
        named(key),
        'Write a filter as field=value or field[operator]=value.',
      );
    }
    const [, field, operatorName] = match as unknown as [string, string, string | undefined];
    const operator = operatorName === undefined ? 'equals' : operatorName;
    if (!Object.hasOwn(operators, operator)) {
      throw new QueryError(
        'unknown_operator',
        named(key),
        `Unknown operator "${clip(operator, 30)}"; operators: ${OPERATOR_NAMES.join(', ')}.`,
      );
    }
    filters.push({ parameter: key, field, operator: operator as OperatorName, raw: value });
  }
  const offset = query.offset as string | undefined;
  if (offset !== undefined) {
    if (paging.skip !== undefined && paging.skip !== offset) {
      throw new QueryError(
        'invalid_paging',
        'offset',
        'offset is another name for skip; give one of them, or both with the same value.',
      );
    }
    if (paging.skip === undefined)
      return { filters, ...paging, skip: offset, skipParameter: 'offset' };
  }
  return { filters, ...paging };
}
