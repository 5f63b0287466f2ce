/**
 * `X-Ignored-Fields` for callers before v2026-11-25 names the fields it dropped as they were
 * sent, and a header carries only printable ASCII: a name with any other character (CJK, an
 * emoji, a control character, CR LF) is percent-encoded as UTF-8, so the answer is always
 * written. Node refused the raw header when the answer was sent, after the handler had run:
 * a booking that was made was answered 500. Over a listening server, since inject writes
 * any header it is given. A field named like a member of Object.prototype (`toString`) is
 * unknown like any other: it was read as a schema property and refused.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { item, openShop, type Shop } from '../helpers/booking.js';

const OLD = '2018-01-01';

let t: TestApp;
let shop: Shop;
let buyer: Account;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
  buyer = await signUp(t.app);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => t.close());

/** Sends `body` as JSON over the socket, as `account` on the old version. */
const send = (account: Account, method: string, path: string, body: Record<string, unknown>) =>
  fetch(`${base}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      'x-api-key': account.apiKey,
      'x-api-version': OLD,
    },
    body: JSON.stringify(body),
  });

const ordersOf = async (account: Account): Promise<number> => {
  const response = await fetch(`${base}/api/orders`, { headers: { 'x-api-key': account.apiKey } });
  return ((await response.json()) as { data: unknown[] }).data.length;
};

const ignored = (response: Response) => response.headers.get('x-ignored-fields');

describe('X-Ignored-Fields', () => {
  it('names a non-Latin-1 field of a new order percent-encoded; the order is made once', async () => {
    const before = await ordersOf(buyer);
    const response = await send(buyer, 'POST', '/api/orders', {
      items: [item(shop.experienceId)],
      備考: 'window seat',
    });
    expect(response.status, await response.clone().text()).toBe(201);
    expect(ignored(response)).toBe('%E5%82%99%E8%80%83');
    expect(decodeURIComponent(ignored(response)!)).toBe('備考');
    expect(await ordersOf(buyer)).toBe(before + 1);
  });

  it('encodes CR LF and control characters: no header is injected, the write answers 200', async () => {
    const path = `/api/experiences/${shop.experienceId}`;
    const response = await send(shop.seller, 'PUT', path, {
      name: 'Renamed',
      'a\r\nSet-Cookie: x=1': 1,
      'b\u0001': 2,
      plain: 3,
    });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(ignored(response)).toBe('a%0D%0ASet-Cookie: x=1, b%01, plain');
    expect(((await response.json()) as { name: string }).name).toBe('Renamed');
  });

  it('drops and names fields called like Object.prototype’s members, as any other', async () => {
    const response = await send(shop.seller, 'PUT', `/api/experiences/${shop.experienceId}`, {
      name: 'Members',
      toString: 1,
      constructor: 2,
      valueOf: 3,
    });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(ignored(response)).toBe('toString, constructor, valueOf');
  });

  it('encodes `%` so every name decodes back, and clips long names whole', async () => {
    const long = '😀'.repeat(200);
    const response = await send(shop.seller, 'PUT', `/api/experiences/${shop.experienceId}`, {
      name: 'Again',
      '50%off': 1,
      [long]: 2,
      ['x'.repeat(300)]: 3,
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const names = ignored(response)!.split(', ');
    expect(names[0]).toBe('50%25off');
    expect(decodeURIComponent(names[0]!)).toBe('50%off');
    // Whole characters only: 8 escapes of 12 bytes' worth fit in 100.
    expect(names[1]).toBe('%F0%9F%98%80'.repeat(8));
    expect(decodeURIComponent(names[1]!)).toBe('😀'.repeat(8));
    expect(names[2]).toBe('x'.repeat(100));
  });
});
