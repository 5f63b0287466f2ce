/**
 * The byte budget of an `expand=` page counts bytes (UTF-8, as the page query's
 * `octet_length` does), not UTF-16 code units: an experience described in CJK text weighs
 * three bytes a character, and counted in characters a page of such orders expanded reached
 * about three times PAGE_BYTES before it was cut.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_BYTES } from '../../src/db/page-budget.js';
import { as, createTestApp, type TestApp } from '../helpers/app.js';
import { openShop, type Shop } from '../helpers/booking.js';

let t: TestApp;
let shop: Shop;
/** The orders made, newest first (the default order). */
const made: string[] = [];
const ORDERS = 6;

beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app, { group: { outingMax: 1000 } });
  const described = await as(t.app, shop.seller, {
    method: 'PUT',
    url: `/api/experiences/${shop.experienceId}`,
    payload: { name: '港湾皮划艇'.repeat(20), desc: '海'.repeat(10_000) },
  });
  expect(described.statusCode, described.body.slice(0, 300)).toBe(200);
  for (let n = 0; n < ORDERS; n++) {
    const items = Array.from({ length: 20 }, (_, k) => ({
      experience: { id: shop.experienceId },
      arrival: `2030-06-${String(1 + k).padStart(2, '0')}`,
      arrivalTime: 900,
      quantity: 1,
    }));
    const booked = await as(t.app, shop.seller, {
      method: 'POST',
      url: '/api/orders',
      payload: { customerName: `Order ${n}`, items },
    });
    expect(booked.statusCode, booked.body.slice(0, 300)).toBe(201);
    made.unshift(booked.json().id);
  }
}, 120_000);
afterAll(async () => t.close());

describe('an expand=experience page of orders in CJK text', () => {
  it('ends where its bytes reach the budget, every order once', async () => {
    const pages: { ids: string[]; bytes: number; first: number }[] = [];
    for (let next: string | null = '/api/orders?limit=100&expand=experience'; next !== null;) {
      const response = await as(t.app, shop.seller, { method: 'GET', url: next });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      const body = response.json<{ data: { id: string }[]; paging: { next: string | null } }>();
      pages.push({
        ids: body.data.map((o) => o.id),
        bytes: response.rawPayload.length,
        first: Buffer.byteLength(JSON.stringify(body.data[0])),
      });
      next = pages.length < 20 ? body.paging.next : null;
    }
    // An expanded order is over a third of the budget in bytes, under a fifth in characters.
    const first = pages[0]!.first;
    expect(first).toBeGreaterThan(PAGE_BYTES / 3);
    expect(pages.flatMap((p) => p.ids)).toEqual(made);
    for (const page of pages) expect(page.bytes).toBeLessThan(PAGE_BYTES + page.first + 1000);
  });
});
