/**
 * Xola's order flow through HTTP: guest types and prices, quotes, Xola's order body, booking
 * codes and `search=`, item statuses and holds, changing an order, and the version-dependent
 * reading of unknown fields. Each refusal is a documented 4xx that changes nothing.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createTestApp,
  expectProblem,
  pinApiVersion,
  signUp,
  type Account,
  type TestApp,
} from '../helpers/app.js';
import { delegate } from '../helpers/guides.js';
import { book, openShop, type Shop } from '../helpers/booking.js';

let t: TestApp;
let shop: Shop;
let adult: string;
let child: string;
let customer: Account;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app, {
    price: 40,
    demographics: [
      { label: 'Adult', code: 'adult' },
      { name: 'Child', code: 'child', price: 19.99 },
    ],
  });
  const experience = (
    await as(t.app, null, { method: 'GET', url: `/api/experiences/${shop.experienceId}` })
  ).json();
  [adult, child] = experience.demographics.map((d: { id: string }) => d.id);
  customer = await signUp(t.app, { name: 'Cora Customer' });
});
afterAll(async () => t.close());

const db = () => t.database.db;
const reserved = async (experienceId: string) =>
  Number(
    (
      await db()
        .selectFrom('events')
        .select((eb) => eb.fn.sum<number>('reserved').as('n'))
        .where('experience_id', '=', experienceId)
        .executeTakeFirstOrThrow()
    ).n ?? 0,
  );
const orderCount = async () =>
  Number(
    (
      await db()
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const guests = (adults: number, children: number) => [
  ...(adults ? [{ demographic: { id: adult }, quantity: adults }] : []),
  ...(children ? [{ demographic: { id: child }, quantity: children }] : []),
];
const xolaItem = (arrival: string, arrivalTime: number | string, adults: number, children = 0) => ({
  experience: { id: shop.experienceId },
  arrival,
  arrivalTime,
  demographics: guests(adults, children),
});
const change = (account: Account, id: string, payload: object, method = 'PATCH', headers = {}) =>
  as(t.app, account, { method, url: `/api/orders/${id}`, payload, headers });
const quote = (account: Account, payload: object) =>
  as(t.app, account, { method: 'POST', url: '/api/orders/prepare', payload });

describe('guest types', () => {
  it('shows each guest type with its price (the experience price by default)', async () => {
    const response = await as(t.app, null, {
      method: 'GET',
      url: `/api/experiences/${shop.experienceId}`,
    });
    expect(response.json().demographics).toEqual([
      { id: adult, label: 'Adult', code: 'adult', price: 40 },
      { id: child, label: 'Child', code: 'child', price: 19.99 },
    ]);
  });

  it('lists them by seller or experience with the query language, public ones to anyone', async () => {
    const bySeller = await as(t.app, null, {
      method: 'GET',
      url: `/api/demographics?seller=${shop.seller.id}&sort=label`,
    });
    expect(bySeller.statusCode).toBe(200);
    expect(bySeller.json().data).toEqual([
      {
        object: 'demographic',
        id: adult,
        seller: { id: shop.seller.id },
        experience: { id: shop.experienceId },
        label: 'Adult',
        code: 'adult',
        price: 40,
        currency: 'EUR',
        visible: true,
      },
      expect.objectContaining({ id: child, code: 'child', price: 19.99 }),
    ]);
    const byCode = await as(t.app, null, {
      method: 'GET',
      url: `/api/demographics?experience=${shop.experienceId}&code=child`,
    });
    expect(byCode.json().data.map((d: { id: string }) => d.id)).toEqual([child]);
    expectProblem(
      await as(t.app, null, { method: 'GET', url: '/api/demographics?bogus=1' }),
      400,
      'unknown_field',
    );
  });

  it("hides a hidden experience's guest types from all but its seller's staff", async () => {
    const hidden = await openShop(t.app, {
      visible: false,
      demographics: [{ label: 'Senior', code: 'senior', price: 10 }],
    });
    const url = `/api/demographics?experience=${hidden.experienceId}`;
    expect((await as(t.app, customer, { method: 'GET', url })).json().data).toEqual([]);
    expect((await as(t.app, hidden.seller, { method: 'GET', url })).json().data).toHaveLength(1);
  });

  it('keeps ids across updates, refuses duplicate codes and prices finer than the currency', async () => {
    const own = await openShop(t.app, { demographics: [{ label: 'Adult', code: 'adult' }] });
    const url = `/api/experiences/${own.experienceId}`;
    const before = (await as(t.app, null, { method: 'GET', url })).json().demographics;
    const updated = await as(t.app, own.seller, {
      method: 'PUT',
      url,
      payload: {
        demographics: [
          { id: before[0].id, label: 'Grown-up', code: 'adult' },
          { label: 'Child', code: 'child', price: 5 },
        ],
      },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().demographics[0]).toMatchObject({ id: before[0].id, label: 'Grown-up' });
    const duplicate = await as(t.app, own.seller, {
      method: 'PUT',
      url,
      payload: {
        demographics: [
          { label: 'A', code: 'x' },
          { label: 'B', code: 'x' },
        ],
      },
    });
    expect(expectProblem(duplicate, 400, 'validation_failed').errors).toEqual([
      { in: 'body', name: 'demographics.1.code', detail: 'is used by another guest type' },
    ]);
    // One id for two guest types: a booking of the first would be priced as the second.
    const sameId = await as(t.app, own.seller, {
      method: 'PUT',
      url,
      payload: {
        demographics: [
          { id: before[0].id, label: 'Adult', code: 'adult', price: 50 },
          { id: before[0].id, label: 'Child', code: 'child', price: 10 },
        ],
      },
    });
    expect(expectProblem(sameId, 400, 'validation_failed').errors).toEqual([
      { in: 'body', name: 'demographics.1.id', detail: 'is used by another guest type' },
    ]);
    const yen = await as(t.app, own.seller, {
      method: 'PUT',
      url,
      payload: { currency: 'JPY', price: 1500.5 },
    });
    expect(expectProblem(yen, 400, 'validation_failed').errors?.[0]).toMatchObject({
      name: 'price',
      detail: 'must have at most 0 decimals (the minor unit of JPY)',
    });
    const dinar = await as(t.app, own.seller, {
      method: 'PUT',
      url,
      payload: { currency: 'KWD', price: 1.125 },
    });
    expect(dinar.json()).toMatchObject({ currency: 'KWD', price: 1.125 });
  });
});

describe('quotes: POST /api/orders/prepare', () => {
  it('answers the order as it would be booked, taking no seats and writing nothing', async () => {
    const seatsBefore = await reserved(shop.experienceId);
    const ordersBefore = await orderCount();
    const response = await quote(customer, { items: [xolaItem('2030-07-01', 900, 2, 1)] });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      object: 'order_quote',
      seller: { id: shop.seller.id },
      amount: 99.99,
      currency: 'EUR',
      items: [
        {
          experience: { id: shop.experienceId },
          name: 'Harbour Kayak',
          arrival: '2030-07-01',
          arrivalTime: 900,
          arrivalDatetime: '2030-07-01T09:00:00+02:00',
          quantity: 3,
          demographics: [
            {
              demographic: { id: adult },
              label: 'Adult',
              code: 'adult',
              quantity: 2,
              price: 40,
              amount: 80,
            },
            {
              demographic: { id: child },
              label: 'Child',
              code: 'child',
              quantity: 1,
              price: 19.99,
              amount: 19.99,
            },
          ],
          lineItems: [
            {
              object: 'lineitem_demographic',
              demographic: { id: adult },
              quantity: 2,
              price: 40,
              amount: 80,
            },
            {
              object: 'lineitem_demographic',
              demographic: { id: child },
              quantity: 1,
              price: 19.99,
              amount: 19.99,
            },
          ],
          price: 40,
          amount: 99.99,
          status: 200,
          seatsLeft: 10,
        },
      ],
    });
    expect(await reserved(shop.experienceId)).toBe(seatsBefore);
    expect(await orderCount()).toBe(ordersBefore);
  });

  it("answers 404 for another seller's hidden experience and 400 for a malformed cart", async () => {
    const hidden = await openShop(t.app, { visible: false });
    const refused = await quote(customer, {
      items: [
        {
          experience: { id: hidden.experienceId },
          arrival: '2030-07-01',
          arrivalTime: 900,
          quantity: 1,
        },
      ],
    });
    expectProblem(refused, 404, 'not_found');
    const many = Array.from({ length: 21 }, () => xolaItem('2030-07-01', 900, 1));
    expectProblem(await quote(customer, { items: many }), 400, 'validation_failed');
    expectProblem(await quote(customer, { items: [] }), 400, 'validation_failed');
  });

  it('refuses with the same 409s as booking', async () => {
    expectProblem(
      await quote(customer, { items: [xolaItem('2030-07-01', 1000, 1)] }),
      409,
      'not_scheduled',
    );
    const full = expectProblem(
      await quote(customer, { items: [xolaItem('2030-07-01', 900, 8, 3)] }),
      409,
      'capacity_exceeded',
    );
    expect(full).toMatchObject({ item: 0, seatsLeft: 10 });
    expectProblem(
      await quote(customer, { items: [xolaItem('2020-07-01', 900, 1)] }),
      409,
      'departure_started',
    );
  });

  it('always equals the amount booked', async () => {
    for (const [day, adults, children] of [
      [11, 1, 0],
      [12, 0, 3],
      [13, 2, 2],
      [14, 3, 1],
    ] as const) {
      const body = { items: [xolaItem(`2030-07-${day}`, 1400, adults, children)] };
      const quoted = (await quote(customer, body)).json();
      const booked = await book(t.app, customer, { ...body, amount: quoted.amount });
      expect(booked.statusCode, booked.body).toBe(201);
      expect(booked.json().amount).toBe(quoted.amount);
      expect(booked.json().items[0].demographics).toEqual(quoted.items[0].demographics);
    }
  });
});

describe("booking with Xola's body", () => {
  it('takes email, phone, source, notes, pay later and a matching amount', async () => {
    const staff = await delegate(t.app, shop.seller, ['ROLE_RESERVATION'], 'Front Desk');
    const response = await book(t.app, staff, {
      customerName: 'Pat Guest',
      email: 'pat@example.com',
      phone: '+33 6 12 34 56 78',
      source: 'Viator',
      notes: [{ text: 'Vegetarian lunch' }],
      payment: { method: 'later' },
      amount: 59.99,
      items: [xolaItem('2030-07-03', 900, 1, 1)],
    });
    expect(response.statusCode).toBe(201);
    const order = response.json();
    expect(order).toMatchObject({
      customerName: 'Pat Guest',
      customerEmail: 'pat@example.com',
      phone: '+33 6 12 34 56 78',
      source: 'Viator',
      notes: [{ text: 'Vegetarian lunch' }],
      payment: { method: 'later' },
      amount: 59.99,
      status: 'confirmed',
      items: [{ quantity: 2, status: 203, amount: 59.99 }],
    });
  });

  it('refuses a stale amount with 409 amount_mismatch and books nothing', async () => {
    const before = await orderCount();
    const seats = await reserved(shop.experienceId);
    const refused = expectProblem(
      await book(t.app, customer, { amount: 80, items: [xolaItem('2030-07-04', 900, 1, 1)] }),
      409,
      'amount_mismatch',
    );
    expect(refused).toMatchObject({ amount: 59.99, currency: 'EUR' });
    expect(await orderCount()).toBe(before);
    expect(await reserved(shop.experienceId)).toBe(seats);
  });

  it('refuses disagreeing email fields, unknown guest types and a quantity off the sum', async () => {
    const bad = async (payload: Record<string, unknown>, name: string) => {
      const body = expectProblem(await book(t.app, customer, payload), 400, 'validation_failed');
      expect(body.errors?.[0]?.name).toBe(name);
    };
    await bad(
      {
        customerEmail: 'a@example.com',
        email: 'b@example.com',
        items: [xolaItem('2030-07-04', 900, 1)],
      },
      'email',
    );
    await bad(
      {
        items: [
          {
            ...xolaItem('2030-07-04', 900, 1),
            demographics: [{ demographic: { id: 'f'.repeat(24) }, quantity: 1 }],
          },
        ],
      },
      'items.0.demographics.0.demographic.id',
    );
    await bad({ items: [{ ...xolaItem('2030-07-04', 900, 1), quantity: 5 }] }, 'items.0.quantity');
    await bad(
      {
        items: [{ experience: { id: shop.experienceId }, arrival: '2030-07-04', arrivalTime: 900 }],
      },
      'items.0.quantity',
    );
  });

  it('lets only staff book statuses 100, 103 and 202', async () => {
    for (const status of [100, 103, 202]) {
      expectProblem(
        await book(t.app, customer, { items: [{ ...xolaItem('2030-07-04', 900, 1), status }] }),
        403,
        'forbidden',
      );
    }
  });
});

describe('booking codes and search', () => {
  let order: { id: string; shortCode: string; items: { ticketCode: string }[] };
  beforeAll(async () => {
    const staff = await delegate(t.app, shop.seller, ['ROLE_RESERVATION'], 'Desk Two');
    order = (
      await book(t.app, staff, {
        customerName: 'Zoë Searchable',
        email: 'zoe.search@example.com',
        items: [xolaItem('2030-07-05', 900, 1)],
      })
    ).json();
  });

  it('finds an order by short code (any case), ticket code, name or email', async () => {
    const find = async (term: string) =>
      (
        await as(t.app, shop.seller, {
          method: 'GET',
          url: `/api/orders?seller=${shop.seller.id}&search=${encodeURIComponent(term)}`,
        })
      ).json();
    for (const term of [
      order.shortCode,
      order.shortCode.toLowerCase(),
      order.items[0]!.ticketCode,
      'ZOË SEARCH',
      'zoe.search@EXAMPLE',
    ]) {
      const found = await find(term);
      expect(
        found.data.map((o: { id: string }) => o.id),
        term,
      ).toContain(order.id);
    }
    expect((await find('nobody-has-this-name')).data).toEqual([]);
    expect((await find('50%_')).data).toEqual([]);
  });

  it('ranks an exact code match first', async () => {
    // Another order whose customer's name holds the first order's code.
    await book(t.app, shop.seller, {
      customerName: `Named ${order.shortCode}`,
      items: [xolaItem('2030-07-06', 900, 1)],
    });
    const found = (
      await as(t.app, shop.seller, {
        method: 'GET',
        url: `/api/orders?search=${order.shortCode}&count=true`,
      })
    ).json();
    expect(found.paging.total).toBe(2);
    expect(found.data[0].id).toBe(order.id);
  });

  it('filters by shortCode and items.ticketCode', async () => {
    const byCode = await as(t.app, shop.seller, {
      method: 'GET',
      url: `/api/orders?shortCode=${order.shortCode}`,
    });
    expect(byCode.json().data.map((o: { id: string }) => o.id)).toEqual([order.id]);
    const byTicket = await as(t.app, shop.seller, {
      method: 'GET',
      url: `/api/orders?items.ticketCode=${order.items[0]!.ticketCode}`,
    });
    expect(byTicket.json().data.map((o: { id: string }) => o.id)).toEqual([order.id]);
  });

  it("never finds another seller's or customer's orders", async () => {
    const stranger = await signUp(t.app);
    const found = await as(t.app, stranger, {
      method: 'GET',
      url: `/api/orders?search=${order.shortCode}`,
    });
    expect(found.json().data).toEqual([]);
    const other = await openShop(t.app);
    const theirs = await as(t.app, other.seller, {
      method: 'GET',
      url: `/api/orders?search=${order.items[0]!.ticketCode}`,
    });
    expect(theirs.json().data).toEqual([]);
  });

  it('refuses an empty, repeated or overlong search with 400', async () => {
    for (const query of ['search=', 'search=a&search=b', `search=${'x'.repeat(201)}`]) {
      const response = await as(t.app, shop.seller, { method: 'GET', url: `/api/orders?${query}` });
      expect(response.statusCode, query).toBe(400);
    }
  });
});

describe('statuses and holds', () => {
  it('keeps the seats of a hold until its deadline, and confirming it keeps them', async () => {
    const staff = await delegate(t.app, shop.seller, ['ROLE_RESERVATION'], 'Holder');
    const seats = await reserved(shop.experienceId);
    const held = (
      await book(t.app, staff, {
        customerName: 'Holding Guest',
        items: [{ ...xolaItem('2030-07-07', 900, 2), status: 103 }],
      })
    ).json();
    expect(held).toMatchObject({ status: 'confirmed', items: [{ status: 103 }] });
    expect(Date.parse(held.holdExpiresAt) - Date.parse(held.createdAt)).toBe(15 * 60_000);
    expect(await reserved(shop.experienceId)).toBe(seats + 2);
    const confirmed = await change(staff, held.id, {
      items: [{ ...xolaItem('2030-07-07', 900, 2), id: held.items[0].id, status: 200 }],
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({
      status: 'confirmed',
      holdExpiresAt: null,
      items: [{ status: 200, ticketCode: held.items[0].ticketCode }],
      adjustments: [],
    });
    expect(await reserved(shop.experienceId)).toBe(seats + 2);
  });
});

describe('changing an order', () => {
  it("changes the customer's details and notes, and nothing else", async () => {
    const order = (await book(t.app, customer, { items: [xolaItem('2030-08-01', 900, 1)] })).json();
    const changed = await change(customer, order.id, {
      customerName: 'Cora C.',
      phone: '+1 555 0100',
      notes: [{ text: 'Arriving late' }],
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      customerName: 'Cora C.',
      phone: '+1 555 0100',
      notes: [{ text: 'Arriving late' }],
      amount: order.amount,
      shortCode: order.shortCode,
      items: order.items,
    });
    const [event] = await db()
      .selectFrom('domain_events')
      .select(['name', 'audit', 'actor_id'])
      .where(sql<string>`object ->> 'id'`, '=', order.id)
      .where('name', '=', 'order.update')
      .execute();
    expect(event).toEqual({
      name: 'order.update',
      actor_id: customer.id,
      audit: {
        customerName: { old: 'Cora Customer', new: 'Cora C.' },
        phone: { old: null, new: '+1 555 0100' },
        notes: { old: [], new: [{ text: 'Arriving late' }] },
      },
    });
  });

  it('moves an item to another departure and resizes it, seats following, with an adjustment', async () => {
    const order = (await book(t.app, customer, { items: [xolaItem('2030-08-02', 900, 2)] })).json();
    const from = order.items[0].event.id;
    const moved = await change(customer, order.id, {
      items: [{ ...xolaItem('2030-08-03', 1400, 2, 1), id: order.items[0].id }],
    });
    expect(moved.statusCode).toBe(200);
    const after = moved.json();
    expect(after).toMatchObject({
      amount: 99.99,
      items: [
        {
          id: order.items[0].id,
          ticketCode: order.items[0].ticketCode,
          arrival: '2030-08-03',
          arrivalTime: 1400,
          quantity: 3,
          status: 200,
        },
      ],
      adjustments: [{ amount: 19.99, reason: 'change' }],
    });
    const seatsOf = async (eventId: string) =>
      (
        await db()
          .selectFrom('events')
          .select('reserved')
          .where('id', '=', eventId)
          .executeTakeFirstOrThrow()
      ).reserved;
    expect(await seatsOf(from)).toBe(0);
    expect(await seatsOf(after.items[0].event.id)).toBe(3);
  });

  it('adds and drops items; a dropped item is canceled and its seats given back', async () => {
    const order = (
      await book(t.app, customer, {
        items: [xolaItem('2030-08-04', 900, 1), xolaItem('2030-08-04', 1400, 1)],
      })
    ).json();
    const [first, second] = order.items;
    const changed = await change(
      customer,
      order.id,
      {
        items: [
          { ...xolaItem('2030-08-04', 900, 1), id: first.id },
          xolaItem('2030-08-05', 900, 0, 2),
        ],
      },
      'PUT',
    );
    expect(changed.statusCode).toBe(200);
    const after = changed.json();
    expect(after.items).toHaveLength(3);
    expect(after.items.find((i: { id: string }) => i.id === second.id).status).toBe(700);
    expect(after.amount).toBe(79.98);
    expect(after.adjustments).toEqual([
      { amount: -0.02, reason: 'change', createdAt: expect.any(String) },
    ]);
    const seats = await db()
      .selectFrom('events')
      .select('reserved')
      .where('id', '=', second.event.id)
      .executeTakeFirstOrThrow();
    expect(seats.reserved).toBe(0);
  });

  it('is all or nothing: a full departure refuses the whole change', async () => {
    const order = (await book(t.app, customer, { items: [xolaItem('2030-08-06', 900, 2)] })).json();
    const crowd = await signUp(t.app);
    await book(t.app, crowd, { items: [xolaItem('2030-08-07', 900, 9)] });
    const before = await reserved(shop.experienceId);
    const refused = await change(customer, order.id, {
      customerName: 'Should Not Stick',
      items: [{ ...xolaItem('2030-08-07', 900, 2), id: order.items[0].id }],
    });
    expect(expectProblem(refused, 409, 'capacity_exceeded')).toMatchObject({ seatsLeft: 1 });
    expect(await reserved(shop.experienceId)).toBe(before);
    const unchanged = await as(t.app, customer, { method: 'GET', url: `/api/orders/${order.id}` });
    expect(unchanged.json()).toMatchObject({
      customerName: order.customerName,
      items: order.items,
    });
  });

  it('checks a sent amount against the changed order', async () => {
    const order = (await book(t.app, customer, { items: [xolaItem('2030-08-08', 900, 1)] })).json();
    expectProblem(
      await change(customer, order.id, {
        amount: 40,
        items: [{ ...xolaItem('2030-08-08', 900, 2), id: order.items[0].id }],
      }),
      409,
      'amount_mismatch',
    );
    const ok = await change(customer, order.id, {
      amount: 80,
      items: [{ ...xolaItem('2030-08-08', 900, 2), id: order.items[0].id }],
    });
    expect(ok.statusCode).toBe(200);
  });

  it('lets only the seller, its reservation staff and the customer change an order', async () => {
    const order = (await book(t.app, customer, { items: [xolaItem('2030-08-09', 900, 1)] })).json();
    const stranger = await signUp(t.app);
    expectProblem(await change(stranger, order.id, { customerName: 'X' }), 404, 'not_found');
    const curator = await delegate(t.app, shop.seller, ['ROLE_CURATOR'], 'Curator');
    expectProblem(await change(curator, order.id, { customerName: 'X' }), 404, 'not_found');
    const desk = await delegate(t.app, shop.seller, ['ROLE_RESERVATION'], 'Desk Three');
    expect((await change(desk, order.id, { customerName: 'By Desk' })).statusCode).toBe(200);
    expect((await change(shop.seller, order.id, { customerName: 'By Seller' })).statusCode).toBe(
      200,
    );
  });

  it('refuses what cannot be changed, with a 4xx that changes nothing', async () => {
    const order = (
      await book(t.app, customer, {
        items: [xolaItem('2030-08-10', 900, 1), xolaItem('2030-08-10', 1400, 1)],
      })
    ).json();
    const [first, second] = order.items;
    const other = (await book(t.app, customer, { items: [xolaItem('2030-08-10', 900, 1)] })).json();
    expect(
      expectProblem(
        await change(customer, order.id, {
          items: [{ ...xolaItem('2030-08-10', 900, 1), id: other.items[0].id }],
        }),
        400,
        'validation_failed',
      ).errors?.[0],
    ).toMatchObject({ name: 'items.0.id', detail: 'is not an item of this order' });
    expectProblem(
      await change(customer, order.id, {
        items: [
          { ...xolaItem('2030-08-10', 900, 1), id: first.id },
          { ...xolaItem('2030-08-10', 900, 1), id: first.id },
        ],
      }),
      400,
      'validation_failed',
    );
    expectProblem(await change(customer, order.id, {}), 400, 'validation_failed');
    expectProblem(await change(customer, order.id, { items: [] }), 400, 'validation_failed');
    expectProblem(
      await change(customer, order.id, {
        items: [{ ...xolaItem('2030-08-10', 900, 1), id: first.id, status: 202 }],
      }),
      403,
      'forbidden',
    );
    // Dropping the second item, then naming it again.
    await change(customer, order.id, {
      items: [{ ...xolaItem('2030-08-10', 900, 1), id: first.id }],
    });
    expectProblem(
      await change(customer, order.id, {
        items: [{ ...xolaItem('2030-08-10', 1400, 1), id: second.id }],
      }),
      409,
      'item_canceled',
    );
    await as(t.app, customer, { method: 'POST', url: `/api/orders/${order.id}/cancel` });
    expectProblem(
      await change(customer, order.id, { customerName: 'Late' }),
      409,
      'already_canceled',
    );
    expectProblem(
      await change(customer, 'f'.repeat(24), { customerName: 'Nobody' }),
      404,
      'not_found',
    );
  });

  it('lets a customer change or cancel its order only before the departure; staff after too', async () => {
    const desk = await delegate(t.app, shop.seller, ['ROLE_RESERVATION'], 'Desk Four');
    const past = (
      await book(t.app, desk, {
        customer: { id: customer.id },
        customerName: 'Cora',
        items: [xolaItem('2020-08-01', 900, 1)],
      })
    ).json();
    expect(past.items).toHaveLength(1);
    expectProblem(
      await change(customer, past.id, { customerName: 'Too late' }),
      409,
      'departure_started',
    );
    expect((await change(desk, past.id, { notes: [{ text: 'No show' }] })).statusCode).toBe(200);
    const cancelAs = (who: Account) =>
      as(t.app, who, { method: 'POST', url: `/api/orders/${past.id}/cancel` });
    expectProblem(await cancelAs(customer), 409, 'departure_started');
    expect((await cancelAs(desk)).statusCode).toBe(200);
  });

  it('honours Idempotency-Key: a retry replays, another order with the same key is refused', async () => {
    const order = (await book(t.app, customer, { items: [xolaItem('2030-08-11', 900, 1)] })).json();
    const payload = { items: [{ ...xolaItem('2030-08-11', 900, 2), id: order.items[0].id }] };
    const headers = { 'idempotency-key': `change-${order.id}` };
    const first = await change(customer, order.id, payload, 'PATCH', headers);
    const retry = await change(customer, order.id, payload, 'PATCH', headers);
    expect(first.statusCode).toBe(200);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    const seats = (
      await db()
        .selectFrom('events')
        .select('reserved')
        .where('id', '=', first.json().items[0].event.id)
        .executeTakeFirstOrThrow()
    ).reserved;
    expect(seats).toBe(2);
    const another = (
      await book(t.app, customer, { items: [xolaItem('2030-08-11', 900, 1)] })
    ).json();
    expectProblem(
      await change(customer, another.id, payload, 'PATCH', headers),
      422,
      'idempotency_key_reused',
    );
  });
});

describe('unknown fields and numeric strings, by version', () => {
  it('refuses unknown fields on the newest version, the one new accounts get', async () => {
    const fresh = await signUp(t.app);
    const response = await book(t.app, fresh, {
      iat: 1700000000,
      items: [xolaItem('2030-09-01', 900, 1)],
    });
    expect(response.headers['x-api-version']).toBe('2026-11-25');
    expect(expectProblem(response, 400, 'validation_failed').errors).toEqual([
      { in: 'body', name: 'iat', detail: 'is not a known field' },
    ]);
  });

  it('ignores and names them for a Xola-era caller, and reads numbers sent as strings', async () => {
    const xola = await signUp(t.app);
    await pinApiVersion(t, xola, '2018-02-26');
    const response = await book(t.app, xola, {
      iat: 1700000000,
      items: [
        {
          arrival: '2030-09-01',
          arrivalTime: '900',
          quantity: '2',
          fees: [{ type: 'fee' }],
          experience: { id: shop.experienceId, name: 'Harbour Kayak' },
        },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers['x-ignored-fields']).toBe('iat, items.0.fees, items.0.experience.name');
    expect(response.json().items[0]).toMatchObject({ arrivalTime: 900, quantity: 2 });
    const strict = await book(
      t.app,
      xola,
      { iat: 1, items: [xolaItem('2030-09-01', 900, 1)] },
      { 'x-api-version': '2026-11-25' },
    );
    expectProblem(strict, 400, 'validation_failed');
  });
});

describe("a Xola channel manager's whole journey", () => {
  it('reads guest types, quotes, books with the amount, finds by code, changes, cancels', async () => {
    const partner = await delegate(t.app, shop.seller, ['ROLE_RESERVATION'], 'Channel Manager');
    const types = (
      await as(t.app, partner, {
        method: 'GET',
        url: `/api/demographics?seller=${shop.seller.id}&experience=${shop.experienceId}`,
      })
    ).json().data;
    const byCode = Object.fromEntries(
      types.map((d: { code: string; id: string }) => [d.code, d.id]),
    );
    const cart = {
      items: [
        {
          experience: { id: shop.experienceId },
          arrival: '2030-09-20',
          arrivalTime: 900,
          demographics: [
            { demographic: { id: byCode.adult }, quantity: 2 },
            { demographic: { id: byCode.child }, quantity: 2 },
          ],
        },
      ],
    };
    const quoting = await quote(partner, cart);
    expect(quoting.statusCode, quoting.body).toBe(200);
    const quoted = quoting.json();
    expect(quoted.amount).toBe(119.98);
    const booked = await book(
      t.app,
      partner,
      {
        ...cart,
        customerName: 'Journey Guest',
        email: 'journey@example.com',
        phone: '+1 555 0199',
        source: 'Partner Channel',
        payment: { method: 'later' },
        amount: quoted.amount,
      },
      { 'idempotency-key': 'journey-1' },
    );
    expect(booked.statusCode).toBe(201);
    const order = booked.json();
    const found = (
      await as(t.app, partner, {
        method: 'GET',
        url: `/api/orders?seller=${shop.seller.id}&search=${order.shortCode}`,
      })
    ).json();
    expect(found.data[0].id).toBe(order.id);
    const changed = await change(
      partner,
      order.id,
      {
        items: [
          {
            ...cart.items[0],
            id: order.items[0].id,
            arrival: '2030-09-21',
            demographics: [{ demographic: { id: byCode.adult }, quantity: 3 }],
          },
        ],
      },
      'PUT',
    );
    expect(changed.json()).toMatchObject({
      amount: 120,
      items: [{ arrival: '2030-09-21', quantity: 3, status: 203 }],
      adjustments: [{ amount: 0.02, reason: 'change' }],
    });
    const canceled = await as(t.app, partner, {
      method: 'POST',
      url: `/api/orders/${order.id}/cancel`,
    });
    expect(canceled.json()).toMatchObject({ status: 'canceled', items: [{ status: 700 }] });
    const events = await db()
      .selectFrom('events')
      .select(['reserved'])
      .where('experience_id', '=', shop.experienceId)
      .where('starts_at', 'in', [
        new Date('2030-09-20T07:00:00Z'),
        new Date('2030-09-21T07:00:00Z'),
      ])
      .execute();
    expect(events.map((e) => e.reserved)).toEqual([0, 0]);
  });
});
