/**
 * jsonPage: a list page's envelope around objects PostgreSQL built as JSON text, written as
 * bytes. The bytes must be exactly the UTF-8 of the JSON document, whatever the objects hold.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonPage } from '../../../src/http/json-text.js';

describe('jsonPage', () => {
  it('writes the envelope: data, then paging with next, then total when counted', () => {
    const page = jsonPage({ data: ['{"id":"a"}', '{"id":"b"}'], paging: { next: null } });
    expect(page.toString('utf8')).toBe('{"data":[{"id":"a"},{"id":"b"}],"paging":{"next":null}}');
    const counted = jsonPage({ data: [], paging: { next: '/api/orders?after=x', total: 7 } });
    expect(JSON.parse(counted.toString('utf8'))).toEqual({
      data: [],
      paging: { next: '/api/orders?after=x', total: 7 },
    });
  });

  it('sizes the buffer by bytes, not characters: multi-byte text is neither cut nor padded', () => {
    const data = ['{"name":"Zoë Ångström 🚤"}', '{"name":"東京"}'];
    const page = jsonPage({ data, paging: { next: '/api/orders?q=é' } });
    expect(page.toString('utf8')).toBe(
      `{"data":[${data.join(',')}],"paging":{"next":"/api/orders?q=é"}}`,
    );
    expect(page.length).toBe(Buffer.byteLength(page.toString('utf8')));
  });

  it('hands out a page of its own each time: a later page never changes an earlier one', () => {
    const first = jsonPage({ data: ['{"id":"a"}'], paging: { next: null } });
    const copy = Buffer.from(first);
    jsonPage({ data: ['{"id":"zzzzzzzzzzzz"}', '{"x":1}'], paging: { next: '/api/x' } });
    expect(first.equals(copy)).toBe(true);
  });

  it('writes pages past the buffer it reuses, and past the largest it keeps, whole', () => {
    // 3 bytes a character at most: 30,000 characters pass the 64 KB it starts with,
    // 400,000 the 1 MB it keeps at most.
    for (const size of [30_000, 400_000]) {
      const data = ['{"a":"' + 'é'.repeat(size) + '"}', '{"b":"' + 'x'.repeat(size) + '"}'];
      const page = jsonPage({ data, paging: { next: null, total: 2 } });
      const expected = `{"data":[${data.join(',')}],"paging":{"next":null,"total":2}}`;
      expect(page.equals(Buffer.from(expected))).toBe(true);
    }
    // 3 bytes each: a bound of fewer than 3 bytes a character would cut these short.
    for (const char of ['東', '\uD800']) {
      const data = ['{"a":"' + char.repeat(40_000) + '"}'];
      const page = jsonPage({ data, paging: { next: null } });
      expect(page.equals(Buffer.from(`{"data":[${data[0]}],"paging":{"next":null}}`))).toBe(true);
    }
    const small = jsonPage({ data: ['{"id":"a"}'], paging: { next: null } });
    expect(small.toString('utf8')).toBe('{"data":[{"id":"a"}],"paging":{"next":null}}');
  });

  it('is the UTF-8 of the same document built as a string, for any objects', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue().map((v) => JSON.stringify(v))),
        fc.option(fc.string({ unit: 'grapheme' })),
        fc.option(fc.nat()),
        (data, next, total) => {
          const paging = total === null ? { next } : { next, total };
          const expected = `{"data":[${data.join(',')}],"paging":${JSON.stringify(paging)}}`;
          expect(jsonPage({ data, paging }).equals(Buffer.from(expected))).toBe(true);
        },
      ),
    );
  });
});
