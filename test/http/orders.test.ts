/**
 * Booking through HTTP: all items or none, schedules, capacity, group sizes, prices, who
 * books for whom, cancelling, reading, the confirmation email row, and every bad input as a
 * 4xx that changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createAdmin,
  createTestApp,
  expectProblem,
  signUp,
  type Account,
  type TestApp,
} from '../helpers/app.js';
import { delegate } from '../helpers/guides.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';

let t: TestApp;
let shop: Shop;
let customer: Account;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
  customer = await signUp(t.app, { name: 'Cora Customer' });
});
afterAll(async () => t.close());

const db = () => t.database.db;
const reserved = async (eventId: string) =>
  (
    await db()
      .selectFrom('events')
      .select('reserved')
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow()
  ).reserved;
const count = async (table: 'orders' | 'order_items' | 'outbox' | 'events') =>
  Number(
    (
      await db()
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const counts = async () => {
  const seats = await db()
    .selectFrom('events')
    .select((eb) => eb.fn.sum<number>('reserved').as('n'))
    .executeTakeFirstOrThrow();
  return {
    orders: await count('orders'),
    items: await count('order_items'),
    outbox: await count('outbox'),
    events: await count('events'),
    seats: Number(seats.n ?? 0),
  };
};

describe('booking', () => {
  it('books for the customer itself, with defaults from its account, and queues the confirmation', async () => {
    const before = await counts();
    const response = await book(t.app, customer, {
      items: [item(shop.experienceId, '2030-06-01', 900, 2)],
    });
    expect(response.statusCode).toBe(201);
    const order = response.json();
    expect(order).toMatchObject({
      object: 'order',
      seller: { id: shop.seller.id },
      customer: { id: customer.id },
      customerName: 'Cora Customer',
      customerEmail: customer.email,
      status: 'confirmed',
      arrival: '2030-06-01',
      amount: 51,
      currency: 'EUR',
      shortCode: expect.stringMatching(/^[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{8}$/),
      phone: null,
      source: null,
      payment: null,
      notes: [],
      adjustments: [],
      holdExpiresAt: null,
    });
    expect(order.items).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        experience: { id: shop.experienceId },
        event: { id: expect.any(String) },
        name: 'Harbour Kayak',
        arrival: '2030-06-01',
        arrivalTime: 900,
        arrivalDatetime: '2030-06-01T09:00:00+02:00',
        quantity: 2,
        demographics: [],
        lineItems: [
          {
            object: 'lineitem_demographic',
            demographic: null,
            quantity: 2,
            price: 25.5,
            amount: 51,
          },
        ],
        price: 25.5,
        amount: 51,
        shortCode: order.shortCode,
        status: 200,
        ticketCode: expect.stringMatching(/^[0-9a-f]{32}$/),
        guests: [0, 1].map(() => ({
          id: expect.stringMatching(/^[0-9a-f]{24}$/),
          demographic: null,
          ticketCode: expect.stringMatching(/^[0-9a-f]{32}$/),
          guestStatus: 'pending',
        })),
        guestStatus: 'pending',
      },
    ]);
    expect(await reserved(order.items[0].event.id)).toBe(2);
    const event = await as(t.app, shop.seller, {
      method: 'GET',
      url: `/api/events/${order.items[0].event.id}`,
    });
    expect(event.json()).toMatchObject({
      title: 'Harbour Kayak',
      max: 10,
      quantity: { reserved: 2 },
      open: 8,
      start: '2030-06-01T09:00:00+02:00',
    });
    const after = await counts();
    expect(after).toMatchObject({
      orders: before.orders + 1,
      items: before.items + 1,
      outbox: before.outbox + 1,
    });
    const mail = await db()
      .selectFrom('outbox')
      .selectAll()
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(mail).toMatchObject({ recipient: customer.email, status: 'pending' });
  });

  it('prices per outing or per person, and sums several items on one order', async () => {
    const outing = await openShop(t.app, {
      name: 'Private Boat',
      priceType: 'outing',
      price: 300,
      currency: 'EUR',
    });
    const two = await openShop(t.app, { name: 'Two', price: 19.99 });
    const response = await book(t.app, customer, {
      items: [item(outing.experienceId, '2030-06-02', 1400, 4)],
    });
    expect(response.json()).toMatchObject({
      amount: 300,
      items: [{ price: 300, amount: 300, quantity: 4 }],
    });
    const multi = await book(t.app, customer, {
      items: [
        item(two.experienceId, '2030-06-05', 900, 3),
        item(two.experienceId, '2030-06-03', 1400, 1),
      ],
    });
    expect(multi.statusCode).toBe(201);
    expect(multi.json()).toMatchObject({ amount: 79.96, arrival: '2030-06-03' });
    expect(multi.json().items.map((i: { amount: number }) => i.amount)).toEqual([59.97, 19.99]);
  });

  it('shows the local offset of each departure across a daylight-saving change', async () => {
    const winter = await book(t.app, customer, {
      items: [item(shop.experienceId, '2030-03-30', 900)],
    });
    const summer = await book(t.app, customer, {
      items: [item(shop.experienceId, '2030-03-31', 900)],
    });
    expect(winter.json().items[0].arrivalDatetime).toBe('2030-03-30T09:00:00+01:00');
    expect(summer.json().items[0].arrivalDatetime).toBe('2030-03-31T09:00:00+02:00');
  });

  it('lets the seller and its reservation delegate book for a customer, and nobody else for someone else', async () => {
    // Staff give the customer's name and email in the order; the account's are never copied
    // to someone else (docs/security.md). The customer booked here before, so it may be named.
    expectProblem(
      await book(t.app, shop.seller, {
        customer: { id: customer.id },
        items: [item(shop.experienceId, '2030-06-04')],
      }),
      400,
      'validation_failed',
    );
    const forCustomer = await book(t.app, shop.seller, {
      customer: { id: customer.id },
      customerName: 'Cora at the desk',
      customerEmail: 'cora.desk@example.com',
      items: [item(shop.experienceId, '2030-06-04')],
    });
    expect(forCustomer.statusCode, forCustomer.body).toBe(201);
    expect(forCustomer.json()).toMatchObject({
      customer: { id: customer.id },
      customerName: 'Cora at the desk',
      customerEmail: 'cora.desk@example.com',
    });
    const walkIn = await book(t.app, shop.seller, {
      customerName: 'Walk In',
      customerEmail: null,
      items: [item(shop.experienceId, '2030-06-04')],
    });
    expect(walkIn.json()).toMatchObject({
      customer: null,
      customerName: 'Walk In',
      customerEmail: null,
    });

    const clerk = await delegate(t.app, shop.seller, ['ROLE_RESERVATION']);
    const byClerk = await book(t.app, clerk, {
      customer: { id: customer.id },
      customerName: 'Cora Customer',
      items: [item(shop.experienceId, '2030-06-04')],
    });
    expect(byClerk.statusCode).toBe(201);
    const list = await as(t.app, clerk, {
      method: 'GET',
      url: `/api/orders?seller=${shop.seller.id}&limit=100`,
    });
    expect(list.json().data.length).toBeGreaterThanOrEqual(3);

    const stranger = await signUp(t.app);
    expectProblem(
      await book(t.app, stranger, {
        customer: { id: customer.id },
        items: [item(shop.experienceId, '2030-06-04')],
      }),
      403,
      'forbidden',
    );
    const curator = await delegate(t.app, shop.seller, ['ROLE_CURATOR']);
    expectProblem(
      await book(t.app, curator, {
        customer: { id: customer.id },
        items: [item(shop.experienceId, '2030-06-04')],
      }),
      403,
      'forbidden',
    );
    expect(
      (
        await as(t.app, curator, { method: 'GET', url: `/api/orders?seller=${shop.seller.id}` })
      ).json().data,
    ).toEqual([]);
  });

  it('refuses a booking that would oversell, with the item and the seats left, and takes nothing', async () => {
    const small = await openShop(t.app, { group: { outingMax: 3 } });
    expect(
      (await book(t.app, customer, { items: [item(small.experienceId, '2030-07-01', 900, 2)] }))
        .statusCode,
    ).toBe(201);
    const before = await counts();
    const response = await book(t.app, customer, {
      items: [
        item(small.experienceId, '2030-07-01', 1400, 1),
        item(small.experienceId, '2030-07-01', 900, 2),
      ],
    });
    const body = expectProblem(response, 409, 'capacity_exceeded');
    expect(body).toMatchObject({ item: 1, seatsLeft: 1, event: { id: expect.any(String) } });
    const after = await counts();
    // The first item's seats were not kept: all or nothing (the 14:00 event may exist, empty).
    expect(after).toMatchObject({
      orders: before.orders,
      items: before.items,
      outbox: before.outbox,
      seats: before.seats,
    });
  });

  it('adds up items on the same departure before checking capacity', async () => {
    const small = await openShop(t.app, { group: { outingMax: 3 } });
    const response = await book(t.app, customer, {
      items: [
        item(small.experienceId, '2030-07-02', 900, 2),
        item(small.experienceId, '2030-07-02', 900, 2),
      ],
    });
    expectProblem(response, 409, 'capacity_exceeded');
  });

  it('answers 409 not_scheduled for a time or a day the schedules do not offer', async () => {
    const weekdays = await openShop(t.app, {
      schedules: [
        { type: 'available', repeat: 'weekly', days: [1, 2, 3, 4, 5], times: [1000] },
        { type: 'unavailable', repeat: 'custom', dates: ['2030-06-05'] },
      ],
    });
    const before = await counts();
    for (const [arrival, time] of [
      ['2030-06-03', 900], // Monday, wrong time
      ['2030-06-01', 1000], // Saturday
      ['2030-06-05', 1000], // Wednesday, closed that day
    ] as const) {
      const body = expectProblem(
        await book(t.app, customer, { items: [item(weekdays.experienceId, arrival, time)] }),
        409,
        'not_scheduled',
      );
      expect(body.item).toBe(0);
    }
    expect(
      (await book(t.app, customer, { items: [item(weekdays.experienceId, '2030-06-03', 1000)] }))
        .statusCode,
    ).toBe(201);
    expect((await counts()).orders).toBe(before.orders + 1);
  });

  it('refuses a departure that does not exist on a daylight-saving day', async () => {
    const night = await openShop(t.app, {
      schedules: [{ type: 'available', repeat: 'weekly', days: [0], times: [230] }],
    });
    expectProblem(
      await book(t.app, customer, { items: [item(night.experienceId, '2030-03-31', 230)] }),
      409,
      'not_scheduled',
    );
    expect(
      (await book(t.app, customer, { items: [item(night.experienceId, '2030-04-07', 230)] }))
        .statusCode,
    ).toBe(201);
  });

  it('applies the group size limits per item', async () => {
    const group = await openShop(t.app, { group: { orderMin: 2, orderMax: 4, outingMax: 10 } });
    const few = expectProblem(
      await book(t.app, customer, { items: [item(group.experienceId, '2030-06-01', 900, 1)] }),
      400,
      'validation_failed',
    );
    expect(few.errors?.[0]).toMatchObject({ name: 'items.0.quantity' });
    expectProblem(
      await book(t.app, customer, { items: [item(group.experienceId, '2030-06-01', 900, 5)] }),
      400,
      'validation_failed',
    );
    expect(
      (await book(t.app, customer, { items: [item(group.experienceId, '2030-06-01', 900, 4)] }))
        .statusCode,
    ).toBe(201);
  });

  it('refuses departures that have started to customers but lets staff record them', async () => {
    expectProblem(
      await book(t.app, customer, { items: [item(shop.experienceId, '2020-01-01', 900)] }),
      409,
      'departure_started',
    );
    const late = await book(t.app, shop.seller, {
      customerName: 'Recorded Later',
      items: [item(shop.experienceId, '2020-01-01', 900)],
    });
    expect(late.statusCode).toBe(201);
  });

  it('hides invisible experiences from customers', async () => {
    const hidden = await openShop(t.app, { visible: false });
    const body = expectProblem(
      await book(t.app, customer, { items: [item(hidden.experienceId)] }),
      404,
      'not_found',
    );
    expect(body.errors?.[0]).toMatchObject({ name: 'items.0.experience.id' });
    expect(
      (
        await book(t.app, hidden.seller, {
          customerName: 'Staff',
          items: [item(hidden.experienceId)],
        })
      ).statusCode,
    ).toBe(201);
  });

  it('keeps one order to one seller and one currency', async () => {
    const other = await openShop(t.app);
    const mixed = expectProblem(
      await book(t.app, customer, { items: [item(shop.experienceId), item(other.experienceId)] }),
      400,
      'validation_failed',
    );
    expect(mixed.errors?.[0]).toMatchObject({ name: 'items.1.experience.id' });
  });
});

describe('bad booking input: 4xx and nothing changed', () => {
  const cases: [string, (id: string) => unknown, number, string][] = [
    ['no items', () => ({ items: [] }), 400, 'validation_failed'],
    [
      'a missing arrival',
      (id) => ({ items: [{ experience: { id }, arrivalTime: 900, quantity: 1 }] }),
      400,
      'validation_failed',
    ],
    ['an extra field', (id) => ({ items: [item(id)], coupon: 'FREE' }), 400, 'validation_failed'],
    [
      'an extra item field',
      (id) => ({ items: [{ ...item(id), price: 0 }] }),
      400,
      'validation_failed',
    ],
    [
      'a quantity of 0',
      (id) => ({ items: [item(id, '2030-06-01', 900, 0)] }),
      400,
      'validation_failed',
    ],
    [
      'a negative quantity',
      (id) => ({ items: [item(id, '2030-06-01', 900, -2)] }),
      400,
      'validation_failed',
    ],
    [
      'a quantity as a string',
      (id) => ({ items: [{ ...item(id), quantity: '2' }] }),
      400,
      'validation_failed',
    ],
    [
      'the date 2019-02-30',
      (id) => ({ items: [item(id, '2019-02-30')] }),
      400,
      'validation_failed',
    ],
    [
      'the time 2460',
      (id) => ({ items: [item(id, '2030-06-01', 2460)] }),
      400,
      'validation_failed',
    ],
    ['the time 960', (id) => ({ items: [item(id, '2030-06-01', 960)] }), 400, 'validation_failed'],
    [
      'an unknown experience',
      () => ({ items: [item('0123456789abcdef01234567')] }),
      404,
      'not_found',
    ],
    ['a malformed experience id', () => ({ items: [item('nope')] }), 400, 'validation_failed'],
    [
      'an unknown customer',
      (id) => ({ customer: { id: '0123456789abcdef01234567' }, items: [item(id)] }),
      404,
      'not_found',
    ],
    [
      'an invalid email',
      (id) => ({ customerEmail: 'not-an-email', items: [item(id)] }),
      400,
      'validation_failed',
    ],
  ];
  it.each(cases)('%s', async (_label, payload, status, code) => {
    const before = await counts();
    const account = code === 'not_found' && _label.includes('customer') ? shop.seller : customer;
    expectProblem(
      await book(t.app, account, payload(shop.experienceId) as Record<string, unknown>),
      status,
      code,
    );
    expect(await counts()).toEqual(before);
  });

  it('needs credentials', async () => {
    expectProblem(
      await t.app.inject({
        method: 'POST',
        url: '/api/orders',
        payload: { items: [item(shop.experienceId)] },
      }),
      401,
      'authentication_required',
    );
  });

  it('needs a name when staff books without a customer account', async () => {
    const body = expectProblem(
      await book(t.app, shop.seller, { items: [item(shop.experienceId)] }),
      400,
      'validation_failed',
    );
    expect(body.errors?.[0]).toMatchObject({ name: 'customerName' });
  });
});

describe('reading and cancelling', () => {
  it('shows an order to its customer, its seller and an admin; 404 to anyone else', async () => {
    const order = (
      await book(t.app, customer, { items: [item(shop.experienceId, '2030-08-01')] })
    ).json();
    const admin = await createAdmin(t);
    for (const account of [customer, shop.seller, admin]) {
      const response = await as(t.app, account, { method: 'GET', url: `/api/orders/${order.id}` });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(order);
    }
    const stranger = await signUp(t.app);
    expectProblem(
      await as(t.app, stranger, { method: 'GET', url: `/api/orders/${order.id}` }),
      404,
      'not_found',
    );
    expectProblem(
      await as(t.app, stranger, { method: 'POST', url: `/api/orders/${order.id}/cancel` }),
      404,
      'not_found',
    );
    expectProblem(
      await as(t.app, customer, { method: 'GET', url: '/api/orders/0123456789abcdef01234567' }),
      404,
      'not_found',
    );
  });

  it('cancels once, giving the seats back; a second cancel is 409', async () => {
    const order = (
      await book(t.app, customer, { items: [item(shop.experienceId, '2030-08-02', 900, 3)] })
    ).json();
    const eventId = order.items[0].event.id;
    expect(await reserved(eventId)).toBe(3);
    const canceled = await as(t.app, customer, {
      method: 'POST',
      url: `/api/orders/${order.id}/cancel`,
    });
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json()).toMatchObject({ status: 'canceled', items: [{ status: 700 }] });
    expect(await reserved(eventId)).toBe(0);
    expectProblem(
      await as(t.app, customer, { method: 'POST', url: `/api/orders/${order.id}/cancel` }),
      409,
      'already_canceled',
    );
    expect(await reserved(eventId)).toBe(0);
    const listed = await as(t.app, customer, {
      method: 'GET',
      url: `/api/orders?status=canceled&id=${order.id}`,
    });
    expect(listed.json().data).toHaveLength(1);
  });

  it('lets the seller cancel a customer’s order', async () => {
    const order = (
      await book(t.app, customer, { items: [item(shop.experienceId, '2030-08-03')] })
    ).json();
    expect(
      (await as(t.app, shop.seller, { method: 'POST', url: `/api/orders/${order.id}/cancel` }))
        .statusCode,
    ).toBe(200);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first response for the same key and body', async () => {
    const payload = { items: [item(shop.experienceId, '2030-09-01')] };
    const first = await book(t.app, customer, payload, { 'idempotency-key': 'order-123' });
    const again = await book(t.app, customer, payload, { 'idempotency-key': 'order-123' });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const orders = await db()
      .selectFrom('order_items')
      .select('order_id')
      .where('arrival', '=', '2030-09-01')
      .execute();
    expect(new Set(orders.map((o) => o.order_id)).size).toBe(1);
  });

  it('answers 422 for the same key with another body, and keys are per account', async () => {
    await book(
      t.app,
      customer,
      { items: [item(shop.experienceId, '2030-09-02')] },
      { 'idempotency-key': 'k-2' },
    );
    expectProblem(
      await book(
        t.app,
        customer,
        { items: [item(shop.experienceId, '2030-09-03')] },
        { 'idempotency-key': 'k-2' },
      ),
      422,
      'idempotency_key_reused',
    );
    const other = await signUp(t.app);
    expect(
      (
        await book(
          t.app,
          other,
          { items: [item(shop.experienceId, '2030-09-03')] },
          { 'idempotency-key': 'k-2' },
        )
      ).statusCode,
    ).toBe(201);
  });

  it('replays a refusal as the same problem', async () => {
    const payload = { items: [item(shop.experienceId, '2030-09-04', 1000)] };
    const first = expectProblem(
      await book(t.app, customer, payload, { 'idempotency-key': 'k-3' }),
      409,
      'not_scheduled',
    );
    const again = await book(t.app, customer, payload, { 'idempotency-key': 'k-3' });
    expect(expectProblem(again, 409, 'not_scheduled').detail).toBe(first.detail);
  });

  it('refuses a malformed key', async () => {
    expectProblem(
      await book(
        t.app,
        customer,
        { items: [item(shop.experienceId)] },
        { 'idempotency-key': 'x'.repeat(256) },
      ),
      400,
      'invalid_idempotency_key',
    );
  });
});
