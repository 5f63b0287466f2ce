/**
 * Short codes are unique per seller. A booking sends its order with a drawn code in one
 * statement with its items and events; a code the seller already has fails that statement,
 * and the booking is made again from the start with another code: one order, its seats
 * taken once. Another seller may hold the same code. A draw that only ever collides ends in
 * an error, never a duplicate, and leaves nothing behind. The draws are scripted here.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import type * as BookingCodes from '../../src/modules/orders/booking-codes.js';

const draws = vi.hoisted(() => ({ next: [] as string[] }));
vi.mock('../../src/modules/orders/booking-codes.js', async (importOriginal) => {
  const real = await importOriginal<typeof BookingCodes>();
  return { ...real, newShortCode: () => draws.next.shift() ?? real.newShortCode() };
});

let t: TestApp;
let shop: Shop;
let other: Shop;
let customer: Account;
beforeAll(async () => {
  t = await createTestApp();
  [shop, other, customer] = await Promise.all([openShop(t.app), openShop(t.app), signUp(t.app)]);
});
afterAll(async () => t.close());

const reservedAt = async (arrival: string) => {
  const { rows } = await sql<{ reserved: number }>`
    select reserved from events where experience_id = ${shop.experienceId}
      and starts_at = ${`${arrival}T07:00:00Z`}::timestamptz`.execute(t.database.db);
  return rows[0]?.reserved ?? 0;
};

describe('short codes', () => {
  it('draws again when the seller has the code, and lets another seller have it', async () => {
    draws.next = ['AAAAAAAA'];
    const first = await book(t.app, customer, { items: [item(shop.experienceId, '2030-06-01')] });
    expect(first.json().shortCode).toBe('AAAAAAAA');

    draws.next = ['AAAAAAAA', 'BBBBBBBB'];
    const second = await book(t.app, customer, {
      items: [item(shop.experienceId, '2030-06-02', 900, 3)],
    });
    expect(second.statusCode).toBe(201);
    expect(second.json().shortCode).toBe('BBBBBBBB');
    // Made again from the start: the seats of the first try were given back with it.
    expect(await reservedAt('2030-06-02')).toBe(3);

    draws.next = ['AAAAAAAA'];
    const elsewhere = await book(t.app, customer, {
      items: [item(other.experienceId, '2030-06-01')],
    });
    expect(elsewhere.json().shortCode).toBe('AAAAAAAA');
    const { rows } = await sql<{ n: string }>`
      select count(*) as n from orders where short_code = 'AAAAAAAA'`.execute(t.database.db);
    expect(Number(rows[0]!.n)).toBe(2);
  });

  it('gives up with an error, never a duplicate, when every draw collides', async () => {
    draws.next = Array.from({ length: 10 }, () => 'AAAAAAAA');
    const response = await book(t.app, customer, {
      items: [item(shop.experienceId, '2030-06-03')],
    });
    draws.next = [];
    expect(response.statusCode).toBe(500);
    expect(response.json().code).toBe('internal_error');
    expect(JSON.stringify(response.json())).not.toContain('AAAAAAAA');
    expect(await reservedAt('2030-06-03')).toBe(0);
    const { rows } = await sql<{ n: string }>`
      select count(*) as n from orders where seller_id = ${shop.seller.id}`.execute(t.database.db);
    expect(Number(rows[0]!.n)).toBe(2);
  });
});
