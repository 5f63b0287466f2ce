/**
 * A list page ends at its byte budget (db/page-budget.ts): a seller's page of 100 orders of
 * 1,000 seats and 20 long notes each was 19 MB, and eight at once took `npm start`'s server
 * past its heap. The page stops at the order that would take it past PAGE_BYTES, says more
 * follow, and `paging.next` goes on from there, in the default order (by id) and by skip,
 * on the latest version (JSON built by PostgreSQL) and on an older one or with `expand=`
 * (the same page parsed): every order exactly once, in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_BYTES } from '../../src/db/page-budget.js';
import { as, createTestApp, pinApiVersion, type TestApp } from '../helpers/app.js';
import { openShop, type Shop } from '../helpers/booking.js';

let t: TestApp;
let shop: Shop;
/** The orders made, newest first (the default order). */
let made: string[];
/** What one order weighs in a page, about. */
let orderBytes: number;

const HEAVY = 9;

beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app, { group: { outingMax: 100_000 } });
  const notes = Array.from({ length: 20 }, (_, i) => ({ text: `${i}`.padEnd(2000, 'n') }));
  made = [];
  for (let n = 0; n < HEAVY; n++) {
    const items = Array.from({ length: 20 }, (_, k) => ({
      experience: { id: shop.experienceId },
      arrival: `2030-06-${String(1 + k).padStart(2, '0')}`,
      arrivalTime: 900,
      quantity: 50,
    }));
    const booked = await as(t.app, shop.seller, {
      method: 'POST',
      url: '/api/orders',
      payload: { customerName: `Heavy ${n}`, notes, items },
    });
    expect(booked.statusCode, booked.body.slice(0, 300)).toBe(201);
    made.unshift(booked.json().id);
    orderBytes = booked.body.length;
  }
}, 120_000);
afterAll(async () => t.close());

/** Every page from `url` on, following `paging.next`: ids and body sizes. */
async function walk(account: Shop['seller'], url: string) {
  const pages: { ids: string[]; bytes: number; next: string | null }[] = [];
  for (let next: string | null = url; next !== null && pages.length < 20;) {
    const response = await as(t.app, account, { method: 'GET', url: next });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    const body = response.json<{ data: { id: string }[]; paging: { next: string | null } }>();
    pages.push({
      ids: body.data.map((o) => o.id),
      bytes: response.body.length,
      next: body.paging.next,
    });
    next = body.paging.next;
  }
  return pages;
}

describe('a page of orders past PAGE_BYTES', () => {
  it('weighs what the test means it to', () => {
    // Each order about 190 KB: nine of them past the budget, five of them within it.
    expect(orderBytes).toBeGreaterThan(150_000);
    expect(orderBytes * HEAVY).toBeGreaterThan(PAGE_BYTES * 1.5);
  });

  it('ends early and goes on by id, every order once, no page much past the budget', async () => {
    const pages = await walk(shop.seller, '/api/orders?limit=100');
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0]!.ids.length).toBeLessThan(HEAVY);
    expect(pages[0]!.next).toMatch(/^\/api\/orders\?id\[lt\]=[0-9a-f]{24}&limit=100$/);
    expect(pages.flatMap((p) => p.ids)).toEqual(made);
    for (const page of pages) expect(page.bytes).toBeLessThan(PAGE_BYTES + orderBytes + 1000);
  });

  it('goes on by skip from where a short page ended', async () => {
    const pages = await walk(shop.seller, '/api/orders?sort=createdAt&limit=100');
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0]!.next).toBe(
      `/api/orders?sort=createdAt&limit=100&skip=${pages[0]!.ids.length}`,
    );
    expect(pages.flatMap((p) => p.ids)).toEqual([...made].reverse());
  });

  it('pages the same on an older version and with expand= (the page parsed)', async () => {
    const latest = (await walk(shop.seller, '/api/orders?limit=100')).map((p) => p.ids);
    expect(
      (await walk(shop.seller, '/api/orders?limit=100&expand=items')).map((p) => p.ids),
    ).toEqual(latest);
    await pinApiVersion(t, shop.seller, '2018-01-01');
    try {
      expect((await walk(shop.seller, '/api/orders?limit=100')).map((p) => p.ids)).toEqual(latest);
    } finally {
      await pinApiVersion(t, shop.seller, '2026-11-25');
    }
  });

  it('ends a page of expand=experience where the expanded orders reach the budget', async () => {
    // The experience every item names, made as heavy as the rules let it be: 20 copies an
    // order once expanded.
    const dates = (year: number) =>
      Array.from({ length: 300 }, (_, i) =>
        new Date(Date.UTC(year, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
      );
    const heavier = await as(t.app, shop.seller, {
      method: 'PUT',
      url: `/api/experiences/${shop.experienceId}`,
      payload: {
        desc: 'd'.repeat(10_000),
        schedules: [
          { type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: [900] },
          ...[2031, 2032, 2033].map((year) => ({
            name: 'n'.repeat(200),
            type: 'unavailable',
            repeat: 'custom',
            dates: dates(year),
          })),
        ],
      },
    });
    expect(heavier.statusCode, heavier.body.slice(0, 300)).toBe(200);
    const experienceBytes = heavier.body.length;
    const pages = await walk(shop.seller, '/api/orders?limit=100&expand=experience');
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.flatMap((p) => p.ids)).toEqual(made);
    const expandedOrder = orderBytes + 20 * experienceBytes;
    for (const page of pages) expect(page.bytes).toBeLessThan(PAGE_BYTES + expandedOrder);
    const first = await as(t.app, shop.seller, { method: 'GET', url: pages[0]!.next! });
    expect(first.json().data[0].items[0].experience.desc).toHaveLength(10_000);
  });
});
