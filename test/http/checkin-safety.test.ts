/**
 * A guest on board is never canceled behind the dock's back (docs/operations-day.md), through
 * the public API: guests of a hold or a pending item do not check in (409
 * item_not_confirmed, by any code and by modify) until the seller confirms it; the sweeper
 * keeps a held item whose guests are on board (pending, seats kept); a customer neither
 * cancels nor changes an item once its guests checked in (409 guest_checked_in), the seller
 * may; guests canceled by the seller have their check-ins undone with them, and undoing the
 * check-in of a canceled guest is 409 guest_canceled.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createTestApp,
  expectProblem,
  signUp,
  type Account,
  type TestApp,
} from '../helpers/app.js';
import { book, item, openShop, seatsReserved, type Shop } from '../helpers/booking.js';
import { eventually } from '../helpers/eventually.js';
import { delegate } from '../helpers/guides.js';

let t: TestApp;
let shop: Shop;
let dock: Account;
const today = new Date().toISOString().slice(0, 10);
const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  // The sweeper on; deadlines are moved into the past by hand where a test needs one.
  t = await createTestApp({ ORDER_HOLD_SWEEP: 'true', ORDER_HOLD_SWEEP_MS: '50' });
  // UTC departures, so that "today" here is the departure's local day.
  shop = await openShop(t.app, { timezone: 'UTC', group: { outingMax: 200 } });
  dock = await delegate(t.app, shop.seller, ['ROLE_CHECKIN'], 'Dock');
});
afterAll(async () => t.close());

async function booked(items: object[], by: Account = shop.seller) {
  const response = await book(t.app, by, { customerName: 'Pat Guest', items });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}
const scan = (payload: Record<string, unknown>) =>
  as(t.app, dock, { method: 'POST', url: '/api/checkins', payload });
const read = async (id: string) =>
  (await as(t.app, shop.seller, { method: 'GET', url: `/api/orders/${id}` })).json();
const patch = (who: Account, id: string, payload: object) =>
  as(t.app, who, { method: 'PATCH', url: `/api/orders/${id}`, payload });
const liveCheckins = async (orderId: string) =>
  (
    await as(t.app, dock, {
      method: 'GET',
      url: `/api/checkins?order=${orderId}&undoneAt[exists]=false`,
    })
  ).json().data;

describe('only confirmed bookings check in', () => {
  it('refuses guests of a hold or a pending item by any code, and by modify', async () => {
    for (const status of [103, 100]) {
      const order = await booked([{ ...item(shop.experienceId, today, 900, 2), status }]);
      const [unit] = order.items;
      for (const code of [order.shortCode, unit.ticketCode, unit.guests[0].ticketCode]) {
        const refused = expectProblem(await scan({ code }), 409, 'item_not_confirmed');
        expect(refused.items).toEqual([{ id: unit.id, status }]);
      }
      expectProblem(
        await as(t.app, shop.seller, {
          method: 'POST',
          url: `/api/orders/${order.id}/modify`,
          payload: { updates: { guestStatus: 'arrived' } },
        }),
        409,
        'item_not_confirmed',
      );
      expect(
        (await read(order.id)).items[0].guests.map((g: { guestStatus: string }) => g.guestStatus),
      ).toEqual(['pending', 'pending']);
      expect(await liveCheckins(order.id)).toEqual([]);
      // Confirmed by the seller, they check in.
      const confirmed = await patch(shop.seller, order.id, {
        items: [{ id: unit.id, status: 200 }],
      });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      const ok = await scan({ code: order.shortCode });
      expect(ok.statusCode).toBe(201);
      expect(ok.json().checkins).toHaveLength(2);
    }
  });

  it("checks in a short code's confirmed guests and leaves the held ones waiting", async () => {
    const order = await booked([
      item(shop.experienceId, today, 900, 1),
      { ...item(shop.experienceId, today, 1400, 1), status: 103 },
    ]);
    const first = await scan({ code: order.shortCode });
    expect(first.statusCode).toBe(201);
    expect(first.json().checkins.map((c: { item: { id: string } }) => c.item.id)).toEqual([
      order.items[0].id,
    ]);
    const again = expectProblem(await scan({ code: order.shortCode }), 409, 'item_not_confirmed');
    expect(again.items).toEqual([{ id: order.items[1].id, status: 103 }]);
  });

  it("refuses a short code whose today's item is not confirmed, not sending the dock to tomorrow's guests", async () => {
    for (const status of [103, 100]) {
      const order = await booked([
        { ...item(shop.experienceId, today, 900, 2), status },
        item(shop.experienceId, tomorrow, 900, 2),
      ]);
      // Not 409 wrong_day ("send force: true"), which checked in tomorrow's two when followed.
      const refused = expectProblem(
        await scan({ code: order.shortCode }),
        409,
        'item_not_confirmed',
      );
      expect(refused.items).toEqual([{ id: order.items[0].id, status }]);
      expect(await liveCheckins(order.id)).toEqual([]);
      const guests = (await read(order.id)).items.flatMap(
        (i: { guests: { guestStatus: string }[] }) => i.guests.map((g) => g.guestStatus),
      );
      expect(guests).toEqual(['pending', 'pending', 'pending', 'pending']);
    }
  });

  it('keeps a held item whose guests are on board when its deadline passes: pending, seats kept', async () => {
    const order = await booked([item(shop.experienceId, today, 900, 2)]);
    const [unit] = order.items;
    expect((await scan({ code: unit.guests[0].ticketCode })).statusCode).toBe(201);
    // The seller puts it back on hold after the check-in; the hold then runs out.
    const held = await patch(shop.seller, order.id, { items: [{ id: unit.id, status: 103 }] });
    expect(held.json().items[0].status).toBe(103);
    await sql`update orders set hold_expires_at = now() - interval '1 second' where id = ${order.id}`.execute(
      t.database.db,
    );
    await eventually(async () => expect((await read(order.id)).holdExpiresAt).toBeNull());
    const after = await read(order.id);
    expect(after).toMatchObject({ status: 'confirmed', items: [{ status: 100 }] });
    expect(after.items[0].guests.map((g: { guestStatus: string }) => g.guestStatus)).toEqual([
      'arrived',
      'pending',
    ]);
    expect(await seatsReserved(t.database.db, unit.event.id)).toBeGreaterThanOrEqual(2);
    expect(await liveCheckins(order.id)).toHaveLength(1);
    const listed = (
      await as(t.app, dock, { method: 'GET', url: `/api/events/${unit.event.id}/manifest` })
    ).json();
    expect(listed.guests.map((g: { id: string }) => g.id)).toEqual(
      expect.arrayContaining(unit.guests.map((g: { id: string }) => g.id)),
    );
  });
});

describe('once guests are on board', () => {
  it('refuses a customer cancelling or changing an item whose guest checked in; the seller may', async () => {
    const customer = await signUp(t.app);
    const order = await booked(
      [item(shop.experienceId, tomorrow, 900, 2), item(shop.experienceId, tomorrow, 1400, 1)],
      customer,
    );
    const [boarded, other] = order.items;
    const guest = boarded.guests[0];
    expect((await scan({ code: guest.ticketCode, force: true })).statusCode).toBe(201);

    const cancel = () =>
      as(t.app, customer, { method: 'POST', url: `/api/orders/${order.id}/cancel` });
    const refused = expectProblem(await cancel(), 409, 'guest_checked_in');
    expect(refused).toMatchObject({ guest: { id: guest.id }, item: { id: boarded.id } });
    for (const items of [
      [{ id: boarded.id, quantity: 1 }, { id: other.id }],
      [{ id: boarded.id, arrivalTime: 1400 }, { id: other.id }],
      [{ id: other.id }],
    ])
      expectProblem(await patch(customer, order.id, { items }), 409, 'guest_checked_in');
    expect((await read(order.id)).items.map((i: { status: number }) => i.status)).toEqual([
      200, 200,
    ]);
    // What leaves the boarded item alone is the customer's to change.
    const renamed = await patch(customer, order.id, { customerName: 'Pat Renamed' });
    expect(renamed.statusCode).toBe(200);
    const dropped = await patch(customer, order.id, { items: [{ id: boarded.id }] });
    expect(dropped.statusCode, dropped.body).toBe(200);
    expect(dropped.json().items.map((i: { status: number }) => i.status)).toEqual([200, 700]);

    const bySeller = await as(t.app, shop.seller, {
      method: 'POST',
      url: `/api/orders/${order.id}/cancel`,
    });
    expect(bySeller.statusCode).toBe(200);
  });
});

describe("canceled guests' check-ins", () => {
  it('are undone with their seats (cancel, a dropped item, a resize); undoing one is 409', async () => {
    const order = await booked([
      item(shop.experienceId, today, 900, 2),
      item(shop.experienceId, today, 1400, 1),
    ]);
    const checkedIn = (await scan({ code: order.shortCode })).json().checkins;
    expect(checkedIn).toHaveLength(3);
    expect(await liveCheckins(order.id)).toHaveLength(3);

    // A dropped item and a resize: the check-ins of the guests they cancel are undone.
    const changed = await patch(shop.seller, order.id, {
      items: [{ id: order.items[0].id, quantity: 1 }],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await liveCheckins(order.id)).toHaveLength(1);

    const canceled = await as(t.app, shop.seller, {
      method: 'POST',
      url: `/api/orders/${order.id}/cancel`,
    });
    expect(canceled.statusCode).toBe(200);
    expect(await liveCheckins(order.id)).toEqual([]);
    const trail = (
      await as(t.app, dock, { method: 'GET', url: `/api/checkins?order=${order.id}` })
    ).json().data;
    expect(trail).toHaveLength(3);
    for (const checkin of trail)
      expect(checkin).toMatchObject({ undoneAt: expect.any(String), undoneBy: null });

    for (const checkin of checkedIn) {
      const refused = expectProblem(
        await as(t.app, dock, { method: 'DELETE', url: `/api/checkins/${checkin.id}` }),
        409,
        'guest_canceled',
      );
      expect(refused.guest).toEqual(checkin.guest);
    }
  });

  it('refuses to undo a check-in left live on a canceled guest (before this release)', async () => {
    const order = await booked([item(shop.experienceId, today, 900, 1)]);
    const [checkin] = (await scan({ code: order.shortCode })).json().checkins;
    // As an older release left it: the guest canceled, its check-in live.
    await sql`update order_guests set canceled_at = now() where order_id = ${order.id}`.execute(
      t.database.db,
    );
    expectProblem(
      await as(t.app, dock, { method: 'DELETE', url: `/api/checkins/${checkin.id}` }),
      409,
      'guest_canceled',
    );
    expect(await liveCheckins(order.id)).toHaveLength(1);
  });
});
