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
