/**
 * What a shared cache in front of the API may keep, and under which key (security-headers.ts):
 * an answer that may carry a credential or personal data is `no-store`; every other one names
 * in `Vary` the request headers its body depends on besides the URL. The same experience is
 * 200 anonymously and with its seller's publishable key, 404 with another seller's key, and
 * each API version has its own shape: a cache keyed on the URL and Origin alone could hand
 * one key's 404 to another seller's widget visitors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp } from '../helpers/app.js';
import { openShop, type Shop } from '../helpers/booking.js';

let t: TestApp;
let shop: Shop;
let keyOf: (s: Shop) => Promise<string>;
let mine: string;
let theirs: string;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
  const other = await openShop(t.app);
  keyOf = async (s) =>
    (
      await as(t.app, s.seller, {
        method: 'POST',
        url: `/api/sellers/${s.seller.id}/publishable-keys`,
        payload: { label: 'site' },
      })
    ).json().key;
  mine = await keyOf(shop);
  theirs = await keyOf(other);
});
afterAll(() => t.close());

const varyOf = (headers: { vary?: string | string[] }) =>
  [headers.vary ?? '']
    .flat()
    .join(',')
    .split(',')
    .map((field) => field.trim().toLowerCase());

describe('cache keys', () => {
  it('name the publishable key and the version on every answer a cache may keep', async () => {
    const url = `/api/experiences/${shop.experienceId}`;
    const answers = await Promise.all([
      t.app.inject({ method: 'GET', url }),
      t.app.inject({ method: 'GET', url, headers: { 'x-publishable-key': mine } }),
      t.app.inject({ method: 'GET', url, headers: { 'x-publishable-key': theirs } }),
      t.app.inject({ method: 'GET', url, headers: { 'x-api-version': '2017-01-01' } }),
      t.app.inject({ method: 'GET', url: '/api/experiences' }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 404, 200, 200]);
    for (const answer of answers) {
      expect(answer.headers['cache-control']).toBeUndefined();
      expect(varyOf(answer.headers)).toEqual(
        expect.arrayContaining(['origin', 'x-publishable-key', 'x-api-version']),
      );
    }
  });

  it('keep answers to a credential out of shared caches altogether', async () => {
    const read = await as(t.app, shop.seller, {
      method: 'GET',
      url: `/api/experiences/${shop.experienceId}`,
    });
    expect(read.statusCode).toBe(200);
    expect(read.headers['cache-control']).toBe('no-store');
  });
});
