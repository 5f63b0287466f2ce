import { describe, expect, it } from 'vitest';
import { QueryError } from '../../../src/query/errors.js';
import { parse } from '../../../src/query/parse.js';
import { OPERATOR_NAMES } from '../../../src/query/types.js';

function error(query: Record<string, unknown>): QueryError {
  try {
    parse(query);
  } catch (e) {
    if (e instanceof QueryError) return e;
    throw e;
  }
  throw new Error('expected a QueryError');
}

describe('parse', () => {
  it('reads field=value as equals', () => {
    expect(parse({ seller: 'abc' }).filters).toEqual([
      { parameter: 'seller', field: 'seller', operator: 'equals', raw: 'abc' },
    ]);
  });

  it.each(OPERATOR_NAMES)('reads field[%s]=value', (operator) => {
    const key = `items.arrival[${operator}]`;
    expect(parse({ [key]: 'v' }).filters).toEqual([
      { parameter: key, field: 'items.arrival', operator, raw: 'v' },
    ]);
  });

  it('keeps values raw, commas included (plan splits them by operator)', () => {
    expect(parse({ 'a[in]': 'x,y', b: 'Smith, John' }).filters.map((f) => f.raw)).toEqual([
      'x,y',
      'Smith, John',
    ]);
  });

  it('reads offset as skip, and refuses both with different values', () => {
    expect(parse({ limit: '20', offset: '40' })).toMatchObject({ skip: '40', limit: '20' });
    expect(parse({ offset: '0', skip: '0' }).skip).toBe('0');
    expect(parse({ offset: '5' }).filters).toEqual([]);
    expect(error({ skip: '0', offset: '20' })).toMatchObject({
      code: 'invalid_paging',
      parameter: 'offset',
    });
  });

  it('takes paging parameters and ignores apiKey and private', () => {
    const parsed = parse({
      limit: '5',
      skip: '10',
      sort: '-amount',
      count: 'true',
      apiKey: 'k',
      private: 'true',
    });
    expect(parsed).toEqual({ filters: [], limit: '5', skip: '10', sort: '-amount', count: 'true' });
  });

  const bad: [string, Record<string, unknown>, string, string][] = [
    ['a repeated parameter', { seller: ['a', 'b'] }, 'repeated_parameter', 'seller'],
    ['a repeated limit', { limit: ['1', '2'] }, 'repeated_parameter', 'limit'],
    ['an unknown operator', { 'arrival[between]': 'x' }, 'unknown_operator', 'arrival[between]'],
    ['an operator in the wrong case', { 'arrival[GTE]': 'x' }, 'unknown_operator', 'arrival[GTE]'],
    ['an empty operator', { 'arrival[]': 'x' }, 'unknown_operator', 'arrival[]'],
    // Names every object inherits are not operators.
    ['toString as an operator', { 'name[toString]': 'x' }, 'unknown_operator', 'name[toString]'],
    [
      'constructor as an operator',
      { 'name[constructor]': 'x' },
      'unknown_operator',
      'name[constructor]',
    ],
    ['an unclosed bracket', { 'arrival[gte': 'x' }, 'invalid_parameter', 'arrival[gte'],
    ['two operators', { 'arrival[gte][lte]': 'x' }, 'invalid_parameter', 'arrival[gte][lte]'],
    ['a field starting with a digit', { '1field': 'x' }, 'invalid_parameter', '1field'],
    ['an empty path segment', { 'items..arrival': 'x' }, 'invalid_parameter', 'items..arrival'],
    ['a nested object', { seller: { a: 1 } }, 'invalid_parameter', 'seller'],
  ];
  it.each(bad)('refuses %s, naming the parameter', (_label, query, code, parameter) => {
    const e = error(query);
    expect(e.code).toBe(code);
    expect(e.parameter).toBe(parameter);
  });

  it('lists the operators when one is unknown', () => {
    expect(error({ 'a[foo]': '1' }).detail).toContain('equals, notEqual, gt');
  });

  it('refuses more than 50 parameters', () => {
    const query = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, 'x']));
    expect(error(query).code).toBe('invalid_parameter');
  });
});

describe('parse: a parameter without a name', () => {
  it('is refused with a name the client can read', () => {
    const e = error({ '': 'x' });
    expect(e.code).toBe('invalid_parameter');
    expect(e.parameter).toBe('(empty name)');
  });
});
