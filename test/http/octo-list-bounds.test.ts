/**
 * GET /octo/bookings answers at most MAX_LISTED_UNIT_ITEMS unit items: OCTo lists have no
 * pages, and 500 bookings of 200 unit items were 59 MB (7 s) in one answer, enough for a few
 * at once to take a 128 MB heap down. Past the bound the list is refused before any booking
 * is read (BAD_REQUEST: ask for fewer dates); each product and its departures' seats are read
 * once per list, not once per booking.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LISTED_UNIT_ITEMS } from '../../src/modules/orders/reseller-reads.service.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';
import { onPostgres } from '../helpers/database.js';
import {
  createAffiliate,
  createExperience,
  expectOctoError,
  expectSpec,
  octo,
  today,
} from '../helpers/octo.js';
import { countStatements } from '../helpers/statement-counter.js';

const UNITS = 200;
let t: TestApp;
let send: (method: 'GET' | 'POST', url: string, body?: unknown) => ReturnType<typeof octo>;
let productId: string;
const day = today(1);
const list = (from = day, to = day) =>
  send('GET', `/bookings?localDateStart=${from}&localDateEnd=${to}`);

async function bookAt(availabilityId: string, units: number, reference: string): Promise<void> {
  const held = await send('POST', '/bookings', {
    productId,
    optionId: 'DEFAULT',
    availabilityId,
    resellerReference: reference,
    unitItems: Array.from({ length: units }, () => ({ unitId: 'adult' })),
  });
  expect(held.statusCode, held.body).toBe(200);
  const confirmed = await send('POST', `/bookings/${held.json().uuid}/confirm`, {
    contact: { fullName: 'Ann Walker', emailAddress: 'ann@example.com' },
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  const seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  // A big boat: no seat limit, so only the list's bound stops what one answer holds.
  productId = (
    await createExperience(t.app, seller, { group: { outingMax: null, orderMax: null } })
  ).id;
  const reseller = await createAffiliate(t.app, seller);
  send = (method, url, body) => octo(t.app, reseller.apiKey, method, url, body);
  const days = await send('POST', '/availability', {
    productId,
    optionId: 'DEFAULT',
    localDateStart: day,
    localDateEnd: day,
  });
  expect(days.statusCode, days.body).toBe(200);
  const [morning, afternoon] = days.json().map((a: { id: string }) => a.id);
  for (let i = 0; i < MAX_LISTED_UNIT_ITEMS / UNITS; i++)
    await bookAt(i % 2 ? afternoon : morning, UNITS, `big-${i}`);
});
afterAll(() => t.close());

describe('GET /octo/bookings', () => {
  it(`lists up to ${MAX_LISTED_UNIT_ITEMS} unit items, each product read once`, async () => {
    const statements = await countStatements(async () => {
      const r = await list();
      expect(r.statusCode).toBe(200);
      const bookings = r.json();
      expect(bookings).toHaveLength(MAX_LISTED_UNIT_ITEMS / UNITS);
      expectSpec('Bookings_GetBookings', bookings);
      expect(r.body.length).toBeLessThan(2 * 1024 * 1024);
    });
    // Three reads per booking (its record, its order, its guests), the product and its
    // departures once: before, two more per booking.
    if (onPostgres) expect(statements.length).toBeLessThanOrEqual(3 * 10 + 6);
  });

  it('refuses a list past the bound before reading it, and the bookings stay reachable', async () => {
    await bookAt((await firstAvailability()) ?? '', 1, 'one-more');
    const refused = expectOctoError(await list(), 'BAD_REQUEST');
    expect(refused.errorMessage).toMatch(/2001 unit items.*fewer dates/);
    // Each booking is still there by its reference, and on a day that holds fewer.
    const one = await send('GET', '/bookings?resellerReference=one-more');
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toHaveLength(1);
  });
});

async function firstAvailability(): Promise<string | undefined> {
  const r = await send('POST', '/availability', {
    productId,
    optionId: 'DEFAULT',
    localDateStart: day,
    localDateEnd: day,
  });
  return r.json()[0]?.id;
}
