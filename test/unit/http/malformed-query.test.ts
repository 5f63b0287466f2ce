/**
 * refuseMalformedQuery: a query string is refused exactly when one of its parameters does
 * not percent-decode, and the refusal names that parameter; the fast paths (no decoding
 * for escapes of ASCII characters, one decode of the whole query) must not change which.
 */
import fc from 'fast-check';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { refuseMalformedQuery } from '../../../src/http/input-text.js';
import { QueryError } from '../../../src/query/errors.js';

const request = (query: string) => ({ url: `/api/orders?${query}` }) as FastifyRequest;

/** The rule, written the slow way: each part decoded on its own. */
function firstMalformed(query: string): string | undefined {
  return query.split('&').find((part) => {
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
      return false;
    } catch {
      return true;
    }
  });
}

describe('refuseMalformedQuery', () => {
  it('refuses a query exactly when one of its parts does not decode', () => {
    const piece = fc.constantFrom(
      'a',
      '=',
      '&',
      '+',
      '%',
      '%2',
      '%5B',
      '%5d',
      '%3A',
      '%7F',
      '%80',
      '%C3',
      '%A9',
      '%E0%A4',
      '%A8',
      '%F0%9F%9A%A4',
      '%ZZ',
      '%00',
      'é',
      '[',
      ']',
      ',',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const query = pieces.join('');
        const bad = firstMalformed(query);
        const refuse = () => refuseMalformedQuery(request(query));
        if (bad === undefined) expect(refuse).not.toThrow();
        else expect(refuse).toThrow(QueryError);
      }),
      { numRuns: 3000 },
    );
  });

  it('names the first parameter at fault', () => {
    const named = (query: string) => {
      try {
        refuseMalformedQuery(request(query));
      } catch (error) {
        return (error as QueryError).parameter;
      }
      return undefined;
    };
    expect(named('a%5Bin%5D=1,2&b=%C3&c=%ZZ')).toBe('b');
    expect(named('start%5Brange%5D=2025-01-01T00%3A00Z,2025-02-01')).toBeUndefined();
    expect(named('name=caf%C3%A9')).toBeUndefined();
  });
});
