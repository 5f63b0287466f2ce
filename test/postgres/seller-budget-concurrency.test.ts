/**
 * A seller's daily budget of confirmations to others under concurrency on a real PostgreSQL
 * server (docs/booking.md, "Not a relay"): the seller, its staff and its publishable key
 * booking at once for thirty strangers queue at most SELLER_CONFIRMATIONS_PER_DAY
 * confirmations between them, counted under the seller's lock; every booking stands. (The
 * embedded database runs one transaction at a time, so only a server shows the race.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type Account, type TestApp } from '../helpers/app.js';
import { signUp } from '../helpers/app.js';
import { delegate } from '../helpers/guides.js';
import { DEPARTURE, createExperience, runPool } from './booking-helpers.js';

let t: TestApp;
let experienceId: string;
let seller: Account;
let staff: Account;
let key: string;

beforeAll(async () => {
  t = await createTestApp({ SELLER_CONFIRMATIONS_PER_DAY: '3' });
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  experienceId = await createExperience(t.app, seller);
  staff = await delegate(t.app, seller, ['ROLE_RESERVATION'], 'Desk');
  const made = await as(t.app, seller, {
    method: 'POST',
    url: `/api/sellers/${seller.id}/publishable-keys`,
    payload: {},
  });
  expect(made.statusCode, made.body).toBe(201);
  key = made.json().key;
});
afterAll(async () => t.close());

describe('the seller’s daily budget', () => {
  it('holds when the seller, its staff and its key book for thirty strangers at once', async () => {
    const payload = (i: number) => ({
      customerName: 'Someone',
      customerEmail: `target${i}@example.com`,
      phone: '+33 6 12 34 56 78',
      // Each its own departure: on one, the event's row lock would serialize them.
      items: [
        {
          experience: { id: experienceId },
          arrival: `2030-07-${String(i + 1).padStart(2, '0')}`,
          arrivalTime: DEPARTURE,
          quantity: 1,
        },
      ],
    });
    const bookings = Array.from({ length: 30 }, (_, i) => () => {
      if (i % 3 === 2) {
        return t.app.inject({
          method: 'POST',
          url: '/api/orders',
          remoteAddress: '203.0.113.9',
          headers: { 'x-publishable-key': key },
          payload: { ...payload(i), source: 'checkout' },
        });
      }
      const account = i % 3 === 0 ? seller : staff;
      return as(t.app, account, { method: 'POST', url: '/api/orders', payload: payload(i) });
    });
    const answers = await runPool(bookings, 10);
    expect(answers.map((a) => a.statusCode)).toEqual(Array(30).fill(201));
    const mailed = await t.database.db
      .selectFrom('outbox')
      .innerJoin('orders', 'orders.id', 'outbox.order_id')
      .select('recipient')
      .where('orders.seller_id', '=', seller.id)
      .where('kind', '=', 'order_confirmation')
      .execute();
    expect(mailed).toHaveLength(3);
  });
});
