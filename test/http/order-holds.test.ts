/**
 * Holds (item status 103) end at their deadline: the sweeper gives their seats back, cancels
 * the held items (an order left with none live is canceled, with `order.cancel`), records
 * the adjustment, and leaves confirmed items and confirmed holds alone.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type Account, type TestApp } from '../helpers/app.js';
import { book, item, openShop, seatsReserved, type Shop } from '../helpers/booking.js';
import { eventually } from '../helpers/eventually.js';
import { delegate } from '../helpers/guides.js';

let t: TestApp;
let shop: Shop;
let desk: Account;
beforeAll(async () => {
  t = await createTestApp(
    { ORDER_HOLD_SWEEP: 'true', ORDER_HOLD_MS: '1000', ORDER_HOLD_SWEEP_MS: '50' },
    {},
  );
  shop = await openShop(t.app);
  desk = await delegate(t.app, shop.seller, ['ROLE_RESERVATION'], 'Desk');
});
afterAll(async () => t.close());

const read = async (id: string) =>
  (await as(t.app, desk, { method: 'GET', url: `/api/orders/${id}` })).json();
const seats = (eventId: string) => seatsReserved(t.database.db, eventId);

describe('hold deadlines', () => {
  it('releases an unconfirmed hold: seats back, items and order canceled', async () => {
    const held = (
      await book(t.app, desk, {
        customerName: 'Held Guest',
        items: [{ ...item(shop.experienceId, '2030-06-10', 900, 3), status: 103 }],
      })
    ).json();
    expect(held.status).toBe('confirmed');
    expect(await seats(held.items[0].event.id)).toBe(3);
    await eventually(async () => expect((await read(held.id)).status).toBe('canceled'));
    const after = await read(held.id);
    expect(after).toMatchObject({ holdExpiresAt: null, items: [{ status: 700 }] });
    expect(after.adjustments).toEqual([
      { amount: -76.5, reason: 'hold expired', createdAt: expect.any(String) },
    ]);
    expect(await seats(held.items[0].event.id)).toBe(0);
    const events = await t.database.db
      .selectFrom('domain_events')
      .select('name')
      .where('name', '=', 'order.cancel')
      .where(sql<string>`object ->> 'id'`, '=', held.id)
      .execute();
    expect(events).toHaveLength(1);
  });

  it('releases only the held items of a mixed order, and never a confirmed hold', async () => {
    const mixed = (
      await book(t.app, desk, {
        customerName: 'Mixed Guest',
        items: [
          item(shop.experienceId, '2030-06-11', 900, 1),
          { ...item(shop.experienceId, '2030-06-11', 1400, 2), status: 103 },
        ],
      })
    ).json();
    const confirmed = (
      await book(t.app, desk, {
        customerName: 'Quick Guest',
        items: [{ ...item(shop.experienceId, '2030-06-12', 900, 2), status: 103 }],
      })
    ).json();
    const confirm = await as(t.app, desk, {
      method: 'PATCH',
      url: `/api/orders/${confirmed.id}`,
      payload: {
        items: [
          {
            ...item(shop.experienceId, '2030-06-12', 900, 2),
            id: confirmed.items[0].id,
            status: 200,
          },
        ],
      },
    });
    expect(confirm.json()).toMatchObject({ status: 'confirmed', holdExpiresAt: null });
    await eventually(async () => expect((await read(mixed.id)).holdExpiresAt).toBeNull());
    const after = await read(mixed.id);
    expect(after.status).toBe('confirmed');
    const byTime = (time: number) =>
      after.items.find((i: { arrivalTime: number }) => i.arrivalTime === time);
    expect(byTime(900).status).toBe(200);
    expect(byTime(1400).status).toBe(700);
    expect(after.amount).toBe(25.5);
    expect(await seats(byTime(1400).event.id)).toBe(0);
    expect(await seats(byTime(900).event.id)).toBe(1);
    // Long past the deadline, the confirmed one keeps its seats.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect((await read(confirmed.id)).items[0].status).toBe(200);
    expect(await seats(confirmed.items[0].event.id)).toBe(2);
  });
});
