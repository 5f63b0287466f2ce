/**
 * Conditional GETs: an ETag on every 200 GET (objects and list pages), 304 without a body
 * when If-None-Match names it, a new ETag once the object changes, and never a 304 for a
 * write or an error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etagOf, matches } from '../../src/http/conditional-get.js';
import { as, createTestApp, type TestApp } from '../helpers/app.js';
import { openShop, type Shop } from '../helpers/booking.js';

let t: TestApp;
let shop: Shop;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
});
afterAll(async () => t.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  as(t.app, shop.seller, { method: 'GET', url, headers });

describe('conditional GETs', () => {
  it('answers 304 with no body while the object is unchanged, 200 with a new ETag after', async () => {
    const url = `/api/experiences/${shop.experienceId}`;
    const first = await get(url);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get(url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect((await get(url, { 'if-none-match': `W/${etag}` })).statusCode).toBe(304);
    expect((await get(url, { 'if-none-match': `"other", ${etag}` })).statusCode).toBe(304);

    await as(t.app, shop.seller, { method: 'PUT', url, payload: { name: 'Renamed Kayak' } });
    const changed = await get(url, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().name).toBe('Renamed Kayak');
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('tags list pages', async () => {
    const list = await get('/api/experiences?limit=5');
    expect(
      (await get('/api/experiences?limit=5', { 'if-none-match': list.headers.etag as string }))
        .statusCode,
    ).toBe(304);
  });

  it('tags the bytes sent: the same body the same tag, its length in bytes, HEAD alike', async () => {
    const url = `/api/experiences/${shop.experienceId}`;
    await as(t.app, shop.seller, { method: 'PUT', url, payload: { name: 'Kajak – Fjörð ✓' } });
    const [a, b] = [await get(url), await get(url)];
    expect(a.body).toBe(b.body);
    expect(a.headers.etag).toBe(b.headers.etag);
    expect(a.headers.etag).toBe(etagOf(a.rawPayload));
    expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(a.headers['content-length'])).toBe(Buffer.byteLength(a.body));
    expect(a.json().name).toBe('Kajak – Fjörð ✓');
    const head = await as(t.app, shop.seller, { method: 'HEAD', url });
    expect(head.headers.etag).toBe(a.headers.etag);
    const notModified = await get(url, { 'if-none-match': a.headers.etag as string });
    expect(notModified.statusCode).toBe(304);
  });

  it('never answers 304 to a write or an error', async () => {
    const missing = await get('/api/experiences/aaaaaaaaaaaaaaaaaaaaaaaa', {
      'if-none-match': '*',
    });
    expect(missing.statusCode).toBe(404);
    const created = await as(t.app, shop.seller, {
      method: 'POST',
      url: '/api/experiences',
      headers: { 'if-none-match': '*' },
      payload: { name: 'New', price: 1, priceType: 'person', currency: 'EUR', duration: 30 },
    });
    expect(created.statusCode).toBe(201);
    expect(created.headers.etag).toBeUndefined();
  });
});

describe('etagOf', () => {
  it('is XXH64 of the bytes (seed 0), 16 hex digits, quoted: the same on every instance', () => {
    // XXH64's published check values (the reference implementation's sanity test).
    expect(etagOf(Buffer.from(''))).toBe('"ef46db3751d8e999"');
    expect(etagOf(Buffer.from('a'))).toBe('"d24ec4f1a98c6e5b"');
    expect(etagOf(Buffer.from('abc'))).toBe('"44bc2cf5ad770999"');
    const text = '{"name":"Fjörð ✓"}';
    expect(etagOf(Buffer.from(text))).toBe(etagOf(Buffer.from(text)));
    expect(etagOf(Buffer.from('{}'))).not.toBe(etagOf(Buffer.from(text)));
  });
});

describe('matches', () => {
  it('compares weakly and understands lists and *', () => {
    expect(matches('"a"', '"a"')).toBe(true);
    expect(matches('W/"a"', '"a"')).toBe(true);
    expect(matches(' "b" , "a" ', '"a"')).toBe(true);
    expect(matches('*', '"a"')).toBe(true);
    expect(matches('"b"', '"a"')).toBe(false);
    expect(matches('', '"a"')).toBe(false);
  });
});
