/**
 * The operator registry: one entry per operator saying which field types it applies to,
 * how many values it takes, its SQL, and its meaning as a plain JavaScript predicate.
 * `compile` and `evaluate` both come from here, so the database and the reference
 * evaluator cannot disagree about what an operator means.
 */
import type { Expression, SqlBool } from 'kysely';
import { fold, foldSql } from './fold.js';
import { bound, fragment, joined, type Fragment } from './fragment.js';
import type { FieldType, OperatorName, Value } from './types.js';
import { utcIso } from '../domain/instant-text.js';

export type Arity = 'one' | 'list' | 'pair';

export interface OperatorDef {
  readonly name: OperatorName;
  readonly arity: Arity;
  readonly types: readonly FieldType[];
  readonly description: string;
  /** SQL over `column` (an expression of the field); values are always bound parameters. */
  compile(
    column: Expression<unknown>,
    values: readonly Value[],
    type: FieldType,
  ): Fragment<SqlBool>;
  /** The same meaning over the field's value in the API object (`undefined`/`null` = empty). */
  evaluate(actual: unknown, values: readonly Value[], type: FieldType): boolean;
  /**
   * The best plan depends on the value, not only on the query's shape (a LIKE pattern's
   * selectivity): a list filtered with it is never run as a prepared statement, whose
   * generic plan would ignore the value (db/list-source.ts).
   */
  readonly planDependsOnValue?: true;
}

const ORDERED: FieldType[] = ['id', 'date', 'datetime', 'number', 'integer'];
const EQUATABLE: FieldType[] = [...ORDERED, 'string', 'boolean', 'enum', 'id-array'];
const LISTABLE: FieldType[] = [...ORDERED, 'string', 'enum', 'id-array'];
const TEXT: FieldType[] = ['string'];
const ALL: FieldType[] = [...EQUATABLE];

/** A value as bound to SQL: datetimes travel as ISO strings. */
function bind(value: Value, type: FieldType): Value {
  return type === 'datetime' ? utcIso(value as number) : value;
}

const isEmpty = (actual: unknown): boolean => actual === null || actual === undefined;

/** Comparable form of an API value: datetimes are ISO strings in objects, ms in plans. */
function comparable(actual: unknown, type: FieldType): string | number | boolean {
  if (type === 'datetime') return Date.parse(actual as string);
  return actual as string | number | boolean;
}

function compare(actual: unknown, value: Value, type: FieldType): number {
  const a = comparable(actual, type);
  return a < value ? -1 : a > value ? 1 : 0;
}

const list = (values: readonly Value[], type: FieldType) =>
  joined(values.map((v) => bound(bind(v, type))));
const idArray = (values: readonly Value[]) => fragment`${bound(values)}::text[]`;

/**
 * `contains` written so that no index serves it (`strpos` instead of LIKE, the same fold
 * on both sides, so the same rows): for rows that another index already narrows.
 */
export const containsRowCheck = (column: Expression<unknown>, value: string) =>
  fragment<SqlBool>`strpos(${foldSql(column)}, ${fold(value)}) > 0`;

/** LIKE pattern with `%`, `_` and `\` taken literally. */
export function likePattern(value: string, where: 'start' | 'end' | 'anywhere'): string {
  const escaped = value.replace(/[\\%_]/g, (c) => `\\${c}`);
  return where === 'start' ? `${escaped}%` : where === 'end' ? `%${escaped}` : `%${escaped}%`;
}

/**
 * The comparison operators and sort directions the compiler writes, as fixed fragments: SQL
 * text is never pasted in (`sql.raw` stays in repositories and db/, the architecture test).
 */
export const COMPARISON_SQL = {
  '<': fragment`<`,
  '<=': fragment`<=`,
  '>': fragment`>`,
  '>=': fragment`>=`,
};
export const DIRECTION_SQL = { asc: fragment`asc`, desc: fragment`desc` };

function comparison(
  name: OperatorName,
  op: '<' | '<=' | '>' | '>=',
  description: string,
): OperatorDef {
  const holds = (c: number) =>
    op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
  return {
    name,
    arity: 'one',
    types: ORDERED,
    description,
    compile: (column, [v], type) =>
      fragment<SqlBool>`${column} ${COMPARISON_SQL[op]} ${bind(v!, type)}`,
    evaluate: (actual, [v], type) => !isEmpty(actual) && holds(compare(actual, v!, type)),
  };
}

function textMatch(
  name: OperatorName,
  where: 'start' | 'end' | 'anywhere',
  description: string,
): OperatorDef {
  const test = (text: string, part: string) =>
    where === 'start'
      ? text.startsWith(part)
      : where === 'end'
        ? text.endsWith(part)
        : text.includes(part);
  return {
    name,
    arity: 'one',
    types: TEXT,
    description,
    compile: (column, [v]) =>
      fragment<SqlBool>`${foldSql(column)} like ${likePattern(fold(v as string), where)}`,
    evaluate: (actual, [v]) => !isEmpty(actual) && test(fold(actual as string), fold(v as string)),
    planDependsOnValue: true,
  };
}

const operatorList: OperatorDef[] = [
  {
    name: 'equals',
    arity: 'one',
    types: EQUATABLE,
    description: 'equal to the value (the default operator); on an id list: contains the id',
    compile: (column, [v], type) =>
      type === 'id-array'
        ? fragment<SqlBool>`${column} @> ${idArray([v!])}`
        : fragment<SqlBool>`${column} = ${bind(v!, type)}`,
    evaluate: (actual, [v], type) =>
      type === 'id-array'
        ? Array.isArray(actual) && actual.includes(v)
        : !isEmpty(actual) && compare(actual, v!, type) === 0,
  },
  {
    name: 'notEqual',
    arity: 'one',
    types: EQUATABLE,
    description: 'not equal to the value, or empty; on an id list: does not contain the id',
    compile: (column, [v], type) =>
      type === 'id-array'
        ? fragment<SqlBool>`not coalesce(${column} @> ${idArray([v!])}, false)`
        : fragment<SqlBool>`${column} is distinct from ${bind(v!, type)}`,
    evaluate: (actual, values, type) => !operators.equals.evaluate(actual, values, type),
  },
  comparison('gt', '>', 'greater than the value'),
  comparison('gte', '>=', 'greater than or equal to the value'),
  comparison('lt', '<', 'less than the value'),
  comparison('lte', '<=', 'less than or equal to the value'),
  {
    name: 'range',
    arity: 'pair',
    types: ORDERED,
    description: 'between the two values, both included',
    compile: (column, [a, b], type) =>
      fragment<SqlBool>`${column} between ${bind(a!, type)} and ${bind(b!, type)}`,
    evaluate: (actual, [a, b], type) =>
      !isEmpty(actual) && compare(actual, a!, type) >= 0 && compare(actual, b!, type) <= 0,
  },
  {
    name: 'in',
    arity: 'list',
    types: LISTABLE,
    description: 'equal to one of the values; on an id list: contains one of the ids',
    compile: (column, values, type) =>
      type === 'id-array'
        ? fragment<SqlBool>`${column} && ${idArray(values)}`
        : fragment<SqlBool>`${column} in (${list(values, type)})`,
    evaluate: (actual, values, type) =>
      values.some((v) => operators.equals.evaluate(actual, [v], type)),
  },
  {
    name: 'nin',
    arity: 'list',
    types: LISTABLE,
    description: 'equal to none of the values, or empty; on an id list: contains none of them',
    compile: (column, values, type) =>
      type === 'id-array'
        ? fragment<SqlBool>`not coalesce(${column} && ${idArray(values)}, false)`
        : fragment<SqlBool>`(${column} is null or ${column} not in (${list(values, type)}))`,
    evaluate: (actual, values, type) => !operators.in.evaluate(actual, values, type),
  },
  textMatch('startsWith', 'start', 'starts with the value, ignoring case'),
  textMatch('endsWith', 'end', 'ends with the value, ignoring case'),
  textMatch('contains', 'anywhere', 'contains the value, ignoring case'),
  {
    name: 'doesNotContain',
    arity: 'one',
    types: TEXT,
    description: 'does not contain the value, ignoring case; also matches empty fields',
    compile: (column, [v]) =>
      fragment<SqlBool>`(${column} is null or ${foldSql(column)} not like ${likePattern(fold(v as string), 'anywhere')})`,
    evaluate: (actual, values, type) => !operators.contains.evaluate(actual, values, type),
    planDependsOnValue: true,
  },
  {
    name: 'exists',
    arity: 'one',
    types: ALL,
    description: '`true`: the field has a value (a non-empty list); `false`: it is empty',
    compile: (column, [wanted], type) => {
      if (type === 'id-array') {
        return wanted
          ? fragment<SqlBool>`cardinality(${column}) > 0`
          : fragment<SqlBool>`coalesce(cardinality(${column}), 0) = 0`;
      }
      return wanted
        ? fragment<SqlBool>`${column} is not null`
        : fragment<SqlBool>`${column} is null`;
    },
    evaluate: (actual, [wanted], type) => {
      const present =
        type === 'id-array' ? Array.isArray(actual) && actual.length > 0 : !isEmpty(actual);
      return present === wanted;
    },
  },
];

export const operators = Object.fromEntries(operatorList.map((o) => [o.name, o])) as Record<
  OperatorName,
  OperatorDef
>;

/** Operators that apply to a type, in the registry's order (for error messages and docs). */
export function operatorsFor(type: FieldType): OperatorName[] {
  return operatorList.filter((o) => o.types.includes(type)).map((o) => o.name);
}

/**
 * Operators a field takes: its type's, narrowed by the field's own allow-list when it has
 * one (a booking code matches exactly: no index serves a substring of it).
 */
export function fieldOperators(field: {
  type: FieldType;
  operators?: readonly OperatorName[];
}): OperatorName[] {
  const all = operatorsFor(field.type);
  return field.operators ? all.filter((o) => field.operators!.includes(o)) : all;
}
