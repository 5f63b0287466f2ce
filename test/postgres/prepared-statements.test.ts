/**
 * Prepared statements on a real server (db/prepared.ts): one order by id is sent as a
 * named statement, and a migration that adds a column to orders under it (a rolling
 * deploy) does not break the instances that prepared it: PostgreSQL refuses the outdated
 * statement ("cached plan must not change result type") and the query is sent again
 * unnamed, on every connection, without the client seeing anything.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { book, item, openShop } from '../helpers/booking.js';

let t: TestApp;
let customer: Account;
let orderId: string;
beforeAll(async () => {
  t = await createTestApp();
  const shop = await openShop(t.app);
  customer = await signUp(t.app);
  orderId = (await book(t.app, customer, { items: [item(shop.experienceId)] })).json().id;
});
afterAll(async () => t.close());

const getOne = () => as(t.app, customer, { method: 'GET', url: `/api/orders/${orderId}` });

describe('prepared statements', () => {
  it('keep answering after a migration changes the table under them', async () => {
    // Prepared on several connections at once, then on one again and again.
    const first = await Promise.all(Array.from({ length: 8 }, getOne));
    for (let i = 0; i < 5; i++) first.push(await getOne());
    expect(first.map((r) => r.statusCode)).toEqual(first.map(() => 200));
    const before = first[0]!.json();

    await sql`alter table orders add column migrated_later integer`.execute(t.database.db);

    const after = [];
    for (let i = 0; i < 5; i++) after.push(await getOne());
    after.push(...(await Promise.all(Array.from({ length: 8 }, getOne))));
    for (const response of after) {
      expect(response.statusCode).toBe(200);
      expect({ ...response.json(), requestId: undefined }).toEqual({
        ...before,
        requestId: undefined,
      });
    }
    const errors = t.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
    expect(errors).toEqual([]);
  });
});
