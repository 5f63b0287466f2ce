/**
 * A boat shared by two experiences is never oversold (issue 29, docs/resources.md): many
 * bookings at once, half on each experience's overlapping departure, on both databases (on
 * PostgreSQL they run in parallel on a pool of connections); exactly the boat's capacity is
 * confirmed, the rest refused with 409 resource_full, and what the departures hold adds up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { book, openShop, type Shop } from '../helpers/booking.js';
import { createExperienceOn } from '../helpers/resources.js';

let t: TestApp;
let shop: Shop;
let customer: Account;

beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app, { timezone: 'UTC' });
  customer = await signUp(t.app);
});
afterAll(async () => t.close());

const experience = (duration: number, times: number[], boatId: string) =>
  createExperienceOn(t.app, shop.seller, [{ resource: { id: boatId } }], { duration, times });

describe('a shared boat under concurrency', () => {
  it('confirms exactly its capacity across two experiences, and refuses the rest', async () => {
    const boat = (
      await as(t.app, shop.seller, {
        method: 'POST',
        url: '/api/resources',
        payload: { name: 'Busy boat', capacity: 10 },
      })
    ).json();
    const long = await experience(120, [900], boat.id);
    const short = await experience(60, [930], boat.id);
    const attempts = Array.from({ length: 30 }, (_, i) =>
      book(t.app, customer, {
        items: [
          {
            experience: { id: i % 2 === 0 ? long : short },
            arrival: '2030-08-01',
            arrivalTime: i % 2 === 0 ? 900 : 930,
            quantity: 1,
          },
        ],
      }),
    );
    const responses = await Promise.all(attempts);
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 409)).toBe(true);
    for (const r of responses.filter((r) => r.statusCode === 409))
      expect(r.json().code).toBe('resource_full');
    const held = await t.database.db
      .selectFrom('resource_seats')
      .select(({ fn }) => fn.sum<number>('seats').as('seats'))
      .where('resource_id', '=', boat.id)
      .executeTakeFirstOrThrow();
    expect(Number(held.seats)).toBe(10);
    const reserved = await t.database.db
      .selectFrom('events')
      .select(({ fn }) => fn.sum<number>('reserved').as('seats'))
      .where('experience_id', 'in', [long, short])
      .executeTakeFirstOrThrow();
    expect(Number(reserved.seats)).toBe(10);
  });
});
