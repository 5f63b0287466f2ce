/**
 * Deleting an experience while it is being booked (PostgreSQL, real concurrency): the
 * deletion is one statement that the order items' foreign keys refuse once anything was
 * booked, so every race ends in a clear answer — the delete wins (204; the booking then
 * finds no experience, 404, or no event, 409) or the booking wins (201; the delete is 409
 * experience_has_bookings) — never a 500, and never an order left without its experience.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import {
  book,
  createExperience,
  customers,
  item,
  runPool,
  serverErrors,
} from './booking-helpers.js';

let t: TestApp;
let seller: Account;
let buyers: Account[];
beforeAll(async () => {
  t = await createTestApp();
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  buyers = await customers(t.app, 4);
});
afterAll(async () => t.close());

describe('deleting an experience while it is booked', () => {
  it('answers 204 or 409 to the delete and 201, 404 or 409 to the bookings, never 500', async () => {
    const outcomes = { deleted: 0, kept: 0 };
    for (let round = 0; round < 15; round++) {
      const id = await createExperience(t.app, seller);
      // The delete goes first, last, or in between: both sides of the race get their turn.
      const bookings = buyers.map((buyer) => () => book(t.app, buyer, [item(id)]));
      const at = round % (bookings.length + 1);
      const tasks = [
        ...bookings.slice(0, at),
        () => as(t.app, seller, { method: 'DELETE', url: `/api/experiences/${id}` }),
        ...bookings.slice(at),
      ];
      const responses = await runPool(tasks, tasks.length);
      expect(serverErrors(responses)).toEqual([]);
      const [deletion] = responses.splice(at, 1);
      if (deletion!.statusCode === 204) {
        outcomes.deleted++;
        for (const b of responses) expect([404, 409], b.body).toContain(b.statusCode);
      } else {
        outcomes.kept++;
        expect(deletion!.json().code).toBe('experience_has_bookings');
        expect(responses.some((b) => b.statusCode === 201)).toBe(true);
      }
    }
    const orphans = await t.database.db
      .selectFrom('order_items as i')
      .leftJoin('experiences as x', 'x.id', 'i.experience_id')
      .select('i.id')
      .where('x.id', 'is', null)
      .execute();
    expect(orphans).toEqual([]);
    // eslint-disable-next-line no-console
    console.log(`delete races: ${outcomes.deleted} deleted first, ${outcomes.kept} booked first`);
  });
});
