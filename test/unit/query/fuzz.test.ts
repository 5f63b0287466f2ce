/** Arbitrary input to parse and plan: either a plan or a QueryError, never anything else. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventList } from '../../../src/modules/events/events.list.js';
import { experienceList } from '../../../src/modules/experiences/experiences.list.js';
import { orderList } from '../../../src/modules/orders/orders.list.js';
import { QueryError } from '../../../src/query/errors.js';
import { OPERATOR_NAMES } from '../../../src/query/types.js';
import { parse } from '../../../src/query/parse.js';
import { plan } from '../../../src/query/plan.js';

const specs = [orderList, eventList, experienceList];
const names = specs.flatMap((s) => s.fields.map((f) => f.name));

/** Keys that are plausible (real fields and operators) as often as they are junk. */
const key = fc.oneof(
  fc.string(),
  fc.constantFrom(...names, 'limit', 'skip', 'sort', 'count', 'apiKey', 'private'),
  fc
    .tuple(fc.constantFrom(...names), fc.oneof(fc.constantFrom(...OPERATOR_NAMES), fc.string()))
    .map(([f, o]) => `${f}[${o}]`),
);
const value = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '2019-11-08',
    '2019-11-08,2019-11-10',
    'true',
    '0123456789abcdef01234567',
    '-1',
    '1e9',
    '%',
    '',
  ),
);
const query = fc.dictionary(key, fc.oneof(value, fc.array(value, { minLength: 2, maxLength: 3 })), {
  maxKeys: 6,
});

describe('parse and plan under arbitrary input', () => {
  it('either plan or raise a QueryError naming a parameter', () => {
    fc.assert(
      fc.property(query, fc.constantFrom(...specs), (q, spec) => {
        try {
          plan(parse(q), spec);
        } catch (error) {
          expect(error).toBeInstanceOf(QueryError);
          expect((error as QueryError).parameter.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 5000 },
    );
  });
});
