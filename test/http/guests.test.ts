/**
 * Guests (issue 29, docs/booking.md "Guests"): every seat of an order item is a guest with its
 * own ticket code, made with the seats and gone from the live list with them. Through the
 * public API: bookings (plain and by guest type), changes (resized up and down, moved, an
 * item added, one dropped), cancellation and an expired hold; the 1,000 seats one order may
 * hold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, expectProblem, type Account, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { eventually } from '../helpers/eventually.js';
import { delegate } from '../helpers/guides.js';

interface GuestBody {
  id: string;
  demographic: { id: string } | null;
  ticketCode: string;
  guestStatus: string;
}

let t: TestApp;
let shop: Shop;
let desk: Account;
let adult: string;
let child: string;
beforeAll(async () => {
  t = await createTestApp({
    ORDER_HOLD_SWEEP: 'true',
    ORDER_HOLD_MS: '1000',
    ORDER_HOLD_SWEEP_MS: '50',
  });
  shop = await openShop(t.app, {
    demographics: [
      { label: 'Adult', code: 'adult' },
      { label: 'Child', code: 'child', price: 10 },
    ],
  });
  desk = await delegate(t.app, shop.seller, ['ROLE_RESERVATION'], 'Desk');
  const experience = (
    await as(t.app, shop.seller, { method: 'GET', url: `/api/experiences/${shop.experienceId}` })
  ).json();
  [adult, child] = experience.demographics.map((d: { id: string }) => d.id);
});
afterAll(async () => t.close());

const read = async (id: string) =>
  (await as(t.app, desk, { method: 'GET', url: `/api/orders/${id}` })).json();
const change = (id: string, payload: Record<string, unknown>) =>
  as(t.app, desk, { method: 'PATCH', url: `/api/orders/${id}`, payload });
const types = (guests: GuestBody[]) => guests.map((g) => g.demographic?.id ?? null);
const liveGuests = (orderId: string) =>
  t.database.db
    .selectFrom('order_guests')
    .select(['id', 'event_id', 'canceled_at'])
    .where('order_id', '=', orderId)
    .execute();

describe('guests', () => {
  it('gives every seat of a booking a guest with its own unguessable ticket code', async () => {
    const response = await book(t.app, desk, {
      customerName: 'Pat Guest',
      items: [
        {
          ...item(shop.experienceId, '2030-06-01'),
          quantity: undefined,
          demographics: [
            { demographic: { id: adult }, quantity: 2 },
            { demographic: { id: child }, quantity: 1 },
          ],
        },
        item(shop.experienceId, '2030-06-01', 1400, 2),
      ],
    });
    expect(response.statusCode).toBe(201);
    const order = response.json();
    const [typed, plain] = order.items;
    expect(types(typed.guests)).toEqual([adult, adult, child]);
    expect(types(plain.guests)).toEqual([null, null]);
    const all: GuestBody[] = [...typed.guests, ...plain.guests];
    for (const guest of all) {
      expect(guest).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        demographic: guest.demographic,
        ticketCode: expect.stringMatching(/^[0-9a-f]{32}$/),
        guestStatus: 'pending',
      });
      expect(guest.ticketCode).not.toBe(typed.ticketCode);
    }
    expect(new Set(all.map((g) => g.ticketCode)).size).toBe(5);
    expect(typed.guestStatus).toBe('pending');
    // What the booking answered is what a read shows.
    expect((await read(order.id)).items).toEqual(order.items);
  });

  it('keeps guests through a resize, cancelling the last ones and adding new ones', async () => {
    const order = (
      await book(t.app, desk, {
        customerName: 'Resize',
        items: [item(shop.experienceId, '2030-06-02', 900, 3)],
      })
    ).json();
    const [first] = order.items;
    const up = await change(order.id, { items: [{ id: first.id, quantity: 5 }] });
    expect(up.statusCode).toBe(200);
    const grown: GuestBody[] = up.json().items[0].guests;
    expect(grown).toHaveLength(5);
    expect(grown.slice(0, 3)).toEqual(first.guests);
    const down = await change(order.id, { items: [{ id: first.id, quantity: 2 }] });
    expect(down.json().items[0].guests).toEqual(first.guests.slice(0, 2));
    expect(await read(order.id)).toMatchObject({ items: [{ guests: first.guests.slice(0, 2) }] });
    const rows = await liveGuests(order.id);
    expect(rows.filter((r) => r.canceled_at === null)).toHaveLength(2);
    expect(rows).toHaveLength(5);
  });

  it('re-types guests when the guest types change: kept where the type stays', async () => {
    const order = (
      await book(t.app, desk, {
        customerName: 'Retype',
        items: [
          {
            ...item(shop.experienceId, '2030-06-02', 1400),
            quantity: undefined,
            demographics: [
              { demographic: { id: adult }, quantity: 2 },
              { demographic: { id: child }, quantity: 1 },
            ],
          },
        ],
      })
    ).json();
    const [entry] = order.items;
    const changed = await change(order.id, {
      items: [
        {
          id: entry.id,
          demographics: [
            { demographic: { id: adult }, quantity: 1 },
            { demographic: { id: child }, quantity: 2 },
          ],
        },
      ],
    });
    const guests: GuestBody[] = changed.json().items[0].guests;
    expect(types(guests)).toEqual([adult, child, child]);
    expect(guests[0]).toEqual(entry.guests[0]);
    expect(guests[1]).toEqual(entry.guests[2]);
  });

  it('moves guests with their item, and gives an added item guests of its own', async () => {
    const order = (
      await book(t.app, desk, {
        customerName: 'Move',
        items: [item(shop.experienceId, '2030-06-03', 900, 2)],
      })
    ).json();
    const [first] = order.items;
    const moved = await change(order.id, {
      items: [
        { id: first.id, arrival: '2030-06-04', arrivalTime: 1400 },
        item(shop.experienceId, '2030-06-04', 900, 1),
      ],
    });
    expect(moved.statusCode).toBe(200);
    const [kept, added] = moved.json().items;
    expect(kept.event.id).not.toBe(first.event.id);
    expect(kept.guests).toEqual(first.guests);
    expect(added.guests).toHaveLength(1);
    const rows = await liveGuests(order.id);
    for (const guest of first.guests as GuestBody[])
      expect(rows.find((r) => r.id === guest.id)?.event_id).toBe(kept.event.id);
    // Dropping the added item cancels its guest.
    const dropped = await change(order.id, { items: [{ id: kept.id }] });
    expect(dropped.json().items[1]).toMatchObject({ status: 700, guests: [] });
  });

  it('cancels every guest of a canceled order', async () => {
    const order = (
      await book(t.app, desk, {
        customerName: 'Cancel',
        items: [item(shop.experienceId, '2030-06-05', 900, 2)],
      })
    ).json();
    const canceled = await as(t.app, desk, {
      method: 'POST',
      url: `/api/orders/${order.id}/cancel`,
    });
    expect(canceled.json().items[0]).toMatchObject({ guests: [], guestStatus: 'pending' });
    expect((await read(order.id)).items[0].guests).toEqual([]);
    const rows = await liveGuests(order.id);
    expect(rows.map((r) => r.canceled_at)).toEqual([expect.any(Date), expect.any(Date)]);
  });

  it('cancels the guests of a hold that expired', async () => {
    const order = (
      await book(t.app, desk, {
        customerName: 'Held',
        items: [
          item(shop.experienceId, '2030-06-06', 900, 1),
          { ...item(shop.experienceId, '2030-06-06', 1400, 2), status: 103 },
        ],
      })
    ).json();
    expect(order.items[1].guests).toHaveLength(2);
    await eventually(async () => expect((await read(order.id)).items[1].status).toBe(700));
    const after = await read(order.id);
    expect(after.items[0].guests).toEqual(order.items[0].guests);
    expect(after.items[1].guests).toEqual([]);
  });

  it('holds at most 1,000 seats in one order, refusing more with a 400 that changes nothing', async () => {
    // No seat limit on the departures: only the order's own bound applies.
    const open = await openShop(t.app, { group: {} });
    const seats = (order: { items: { guests: unknown[] }[] }) =>
      order.items.reduce((sum, i) => sum + i.guests.length, 0);
    const full = await book(t.app, open.seller, {
      customerName: 'Big Group',
      items: [item(open.experienceId, '2030-07-01', 900, 1000)],
    });
    expect(full.statusCode, full.body).toBe(201);
    expect(seats(full.json())).toBe(1000);

    // Twenty items of 10,000 seats: a statement past PostgreSQL's parameters, once a 503.
    const huge = await book(t.app, open.seller, {
      customerName: 'Huge',
      items: Array.from({ length: 20 }, (_, i) =>
        item(open.experienceId, `2030-07-${String(i + 2).padStart(2, '0')}`, 900, 10_000),
      ),
    });
    const refused = expectProblem(huge, 400, 'validation_failed');
    expect(refused.errors).toEqual([
      expect.objectContaining({ name: 'items.19.quantity', detail: expect.stringMatching(/1000/) }),
    ]);

    const order = (
      await book(t.app, open.seller, {
        customerName: 'Growing',
        items: [item(open.experienceId, '2030-07-03', 900, 600)],
      })
    ).json();
    const grown = await as(t.app, open.seller, {
      method: 'PATCH',
      url: `/api/orders/${order.id}`,
      payload: {
        items: [
          { id: order.items[0].id, ...item(open.experienceId, '2030-07-03', 900, 600) },
          item(open.experienceId, '2030-07-04', 900, 401),
        ],
      },
    });
    expectProblem(grown, 400, 'validation_failed');
    const after = (
      await as(t.app, open.seller, { method: 'GET', url: `/api/orders/${order.id}` })
    ).json();
    expect(after.items).toHaveLength(1);
    expect(seats(after)).toBe(600);
    const rows = await t.database.db
      .selectFrom('order_items')
      .select('id')
      .where('order_id', 'in', [order.id])
      .execute();
    expect(rows).toHaveLength(1);
  });
});
