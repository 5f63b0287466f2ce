/**
 * Migration 0019 on orders booked before guests existed: every seat gets a guest (each guest
 * type's line expanded in the order booked, then the untyped seats), with its own
 * unguessable ticket code; canceled items' guests are canceled. The orders are inserted with
 * the factories (which write no guests, as the code before 0019 did), then the migration's
 * backfill runs on them, and the result is read through the public API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { addGuestsOfOrdersBookedBefore } from '../../src/db/migrations/0019_guests_checkins.js';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { insertEvent, insertExperience, insertOrder } from '../helpers/factories.js';

let t: TestApp;
let seller: Account;
const orders = { plain: '', typed: '', canceled: '' };

beforeAll(async () => {
  t = await createTestApp();
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  const db = t.database.db;
  const experienceId = await insertExperience(db, { sellerId: seller.id });
  const eventId = await insertEvent(db, {
    experienceId,
    sellerId: seller.id,
    start: new Date('2030-06-01T09:00:00Z'),
    reserved: 9,
  });
  const at = { experienceId, eventId, arrival: '2030-06-01' };
  orders.plain = await insertOrder(db, { sellerId: seller.id, items: [{ ...at, quantity: 3 }] });
  orders.typed = await insertOrder(db, { sellerId: seller.id, items: [{ ...at, quantity: 4 }] });
  orders.canceled = await insertOrder(db, {
    sellerId: seller.id,
    status: 'canceled',
    updatedAt: new Date('2029-01-02T03:04:05Z'),
    items: [{ ...at, quantity: 2, status: 700 }],
  });
  // Two adults and a child booked by type, and one seat left without a type.
  const lines = [
    { demographic: { id: 'a'.repeat(24) }, label: 'Adult', code: 'adult', quantity: 2 },
    { demographic: { id: 'c'.repeat(24) }, label: 'Child', code: 'child', quantity: 1 },
  ].map((line) => ({ ...line, price: 50, amount: 50 * line.quantity }));
  await db
    .updateTable('order_items')
    .set({ demographics: JSON.stringify(lines) })
    .where('order_id', '=', orders.typed)
    .execute();
  await addGuestsOfOrdersBookedBefore(db as unknown as Kysely<unknown>);
});
afterAll(() => t.close());

const read = async (id: string) =>
  (await as(t.app, seller, { method: 'GET', url: `/api/orders/${id}` })).json();

describe('migration 0019: guests of orders booked before', () => {
  it('gives every seat of a live item a pending guest with its own ticket code', async () => {
    const [item] = (await read(orders.plain)).items;
    expect(item.guests).toHaveLength(3);
    for (const guest of item.guests) {
      expect(guest).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        demographic: null,
        ticketCode: expect.stringMatching(/^[0-9a-f]{32}$/),
        guestStatus: 'pending',
      });
    }
    expect(new Set(item.guests.map((g: { ticketCode: string }) => g.ticketCode)).size).toBe(3);
    expect(item.guestStatus).toBe('pending');
  });

  it('expands guest types in the order booked, then the seats without a type', async () => {
    const [item] = (await read(orders.typed)).items;
    expect(item.guests.map((g: { demographic: { id: string } | null }) => g.demographic)).toEqual([
      { id: 'a'.repeat(24) },
      { id: 'a'.repeat(24) },
      { id: 'c'.repeat(24) },
      null,
    ]);
  });

  it('cancels the guests of canceled items, when their order last changed', async () => {
    expect((await read(orders.canceled)).items[0].guests).toEqual([]);
    const rows = await t.database.db
      .selectFrom('order_guests')
      .select(['canceled_at', 'position'])
      .where('order_id', '=', orders.canceled)
      .orderBy('position')
      .execute();
    expect(rows).toEqual([
      { canceled_at: new Date('2029-01-02T03:04:05Z'), position: 0 },
      { canceled_at: new Date('2029-01-02T03:04:05Z'), position: 1 },
    ]);
  });

  it('leaves items that have guests alone when run again', async () => {
    const before = await t.database.db.selectFrom('order_guests').select('id').execute();
    await addGuestsOfOrdersBookedBefore(t.database.db as unknown as Kysely<unknown>);
    const after = await t.database.db.selectFrom('order_guests').select('id').execute();
    expect(after).toHaveLength(before.length);
  });
});
