/**
 * Date-time filter values are read to the millisecond, the precision timestamps are stored
 * in: digits past the third are refused unless they are zeros, since dropping them would
 * move a bound (`lt=…00.0009Z` excluded an object made at `.000`, `gte=…00.0001Z` included it).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QueryError } from '../../../src/query/errors.js';
import { parse } from '../../../src/query/parse.js';
import { plan } from '../../../src/query/plan.js';
import type { ResourceSpec } from '../../../src/query/types.js';

const spec: ResourceSpec = {
  resource: 'things',
  table: 'things',
  alias: 't',
  fields: [
    { name: 'id', type: 'id', sql: 'id', read: (o) => o.id, sortable: true },
    { name: 'at', type: 'datetime', sql: 'at', read: (o) => o.at, sortable: true },
  ],
};

const planned = (query: Record<string, string>) => plan(parse(query), spec).filters[0]!.values;

const instant = fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) });
/** ISO 8601 of `ms` with `extra` digits written after its milliseconds. */
const withDigits = (ms: number, extra: string) =>
  new Date(ms).toISOString().replace('Z', `${extra}Z`);

describe('date-time values to the millisecond', () => {
  it('refuses sub-millisecond digits other than zeros, for every operator', () => {
    fc.assert(
      fc.property(
        instant,
        fc.integer({ min: 1, max: 999 }),
        fc.constantFrom('at', 'at[lt]', 'at[gte]', 'at[gt]', 'at[lte]'),
        (ms, micros, parameter) => {
          const value = withDigits(ms, String(micros).padStart(3, '0'));
          let caught: unknown;
          try {
            planned({ [parameter]: value });
          } catch (e) {
            caught = e;
          }
          expect(caught).toBeInstanceOf(QueryError);
          expect((caught as QueryError).code).toBe('invalid_value');
          expect((caught as QueryError).parameter).toBe(parameter);
          expect((caught as QueryError).detail).toContain('to the millisecond');
        },
      ),
    );
  });

  it('reads trailing zeros (microseconds as clients write them) as the exact millisecond', () => {
    fc.assert(
      fc.property(instant, fc.constantFrom('', '0', '00', '000'), (ms, zeros) => {
        expect(planned({ 'at[lt]': withDigits(ms, zeros) })).toEqual([ms]);
      }),
    );
    expect(planned({ 'at[range]': '2019-11-08T17:00:00.5Z,2019-11-08T17:00:00.12Z' })).toEqual([
      Date.UTC(2019, 10, 8, 17, 0, 0, 500),
      Date.UTC(2019, 10, 8, 17, 0, 0, 120),
    ]);
  });
});
