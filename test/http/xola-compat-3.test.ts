/**
 * What real Xola integrations send and read, round 3 (issue 28): guest counts given only as
 * `items[].lineItems`, the priced `lineItems` and `shortCode` they read on every item, a
 * single-item booking from a caller before v2017-09-28 (Xola's browser SDK), and an item
 * change that names the item by id and leaves its other fields out.
 */
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

let t: TestApp;
let shop: Shop;
let plain: Shop;
let adult: string;
let child: string;
let customer: Account;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app, {
    price: 40,
    demographics: [
      { label: 'Adult', code: 'adult' },
      { label: 'Child', code: 'child', price: 20 },
    ],
  });
  plain = await openShop(t.app);
  const experience = (
    await as(t.app, null, { method: 'GET', url: `/api/experiences/${shop.experienceId}` })
  ).json();
  [adult, child] = experience.demographics.map((d: { id: string }) => d.id);
  customer = await signUp(t.app, { name: 'Lin Item' });
});
afterAll(async () => t.close());

const line = (id: string | null, quantity: number) => ({
  object: 'lineitem_demographic',
  demographic: id === null ? null : { id },
  quantity,
});
const at = (arrival: string, fields: object) => ({
  experience: { id: shop.experienceId },
  arrival,
  arrivalTime: 900,
  ...fields,
});
const quote = (account: Account, payload: object, headers: Record<string, string> = {}) =>
  as(t.app, account, { method: 'POST', url: '/api/orders/prepare', payload, headers });

describe('guest counts in items[].lineItems', () => {
  it('are read as demographics when quoting and booking', async () => {
    const items = [at('2031-03-02', { lineItems: [line(adult, 2), line(child, 1)] })];
    const quoted = await quote(customer, { items });
    expect(quoted.statusCode).toBe(200);
    expect(quoted.json().items[0]).toMatchObject({ quantity: 3, amount: 100 });
    const booked = await book(t.app, customer, { items });
    expect(booked.statusCode).toBe(201);
    const order = booked.json();
    expect(order.items[0].quantity).toBe(3);
    expect(order.items[0].demographics).toEqual([
      expect.objectContaining({ demographic: { id: adult }, quantity: 2, price: 40, amount: 80 }),
      expect.objectContaining({ demographic: { id: child }, quantity: 1, price: 20, amount: 20 }),
    ]);
    expect(await seatsReserved(t.database.db, order.items[0].event.id)).toBe(3);
  });

  it('count plain seats when every line is the default guest type', async () => {
    const booked = await book(t.app, customer, {
      items: [
        {
          experience: { id: plain.experienceId },
          arrival: '2031-03-02',
          arrivalTime: 900,
          lineItems: [line(null, 2)],
        },
      ],
    });
    expect(booked.statusCode).toBe(201);
    expect(booked.json().items[0]).toMatchObject({ quantity: 2, amount: 51 });
  });

  it('agree with demographics given beside them, or are a 400 that changes nothing', async () => {
    const same = at('2031-03-03', {
      demographics: [{ demographic: { id: adult }, quantity: 1 }],
      lineItems: [line(adult, 1)],
    });
    expect((await quote(customer, { items: [same] })).statusCode).toBe(200);
    const before = await t.database.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    for (const bad of [
      at('2031-03-03', {
        demographics: [{ demographic: { id: adult }, quantity: 1 }],
        lineItems: [line(adult, 2)],
      }),
      at('2031-03-03', { lineItems: [line(adult, 1), line(null, 1)] }),
      at('2031-03-03', { quantity: 3, lineItems: [line(null, 2)] }),
    ]) {
      const refused = await book(t.app, customer, { items: [bad] });
      const problem = expectProblem(refused, 400, 'validation_failed');
      expect(problem.errors?.[0]).toMatchObject({ in: 'body', name: 'items.0.lineItems' });
    }
    const after = await t.database.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('change an order’s guest counts', async () => {
    const order = (
      await book(t.app, customer, { items: [at('2031-03-04', { lineItems: [line(adult, 1)] })] })
    ).json();
    const changed = await as(t.app, customer, {
      method: 'PATCH',
      url: `/api/orders/${order.id}`,
      payload: {
        items: [{ id: order.items[0].id, lineItems: [line(adult, 1), line(child, 2)] }],
      },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().items[0]).toMatchObject({ quantity: 3, amount: 80 });
  });
});

describe('lineItems and shortCode on items', () => {
  it('show the priced lines of each item and the order’s code', async () => {
    const order = (
      await book(t.app, customer, {
        items: [
          at('2031-03-05', { lineItems: [line(adult, 2), line(child, 1)] }),
          item(shop.experienceId, '2031-03-05', 1400, 2),
        ],
      })
    ).json();
    expect(order.items[0].lineItems).toEqual([
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
        price: 20,
        amount: 20,
      },
    ]);
    expect(order.items[1].lineItems).toEqual([
      { object: 'lineitem_demographic', demographic: null, quantity: 2, price: 40, amount: 80 },
    ]);
    for (const entry of order.items) expect(entry.shortCode).toBe(order.shortCode);
    const read = (
      await as(t.app, customer, { method: 'GET', url: `/api/orders/${order.id}` })
    ).json();
    expect(read.items.map((i: { lineItems: unknown }) => i.lineItems)).toEqual(
      order.items.map((i: { lineItems: unknown }) => i.lineItems),
    );
    const listed = (
      await as(t.app, shop.seller, { method: 'GET', url: `/api/orders?id=${order.id}` })
    ).json();
    expect(listed.data[0].items[0].shortCode).toBe(order.shortCode);
  });

  it('are on quote items too, with a price a channel manager can read', async () => {
    const quoted = (
      await quote(customer, { items: [at('2031-03-06', { lineItems: [line(child, 2)] })] })
    ).json();
    expect(quoted.items[0].lineItems).toEqual([
      {
        object: 'lineitem_demographic',
        demographic: { id: child },
        quantity: 2,
        price: 20,
        amount: 40,
      },
    ]);
  });

  it('are in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const itemSchema = JSON.stringify(doc.components.schemas.Order);
    expect(itemSchema).toContain('"lineItems"');
    expect(itemSchema).toContain('"shortCode"');
  });
});

describe('single-item bookings of callers before v2017-09-28', () => {
  const OLD = { 'x-api-version': '2017-06-01' };

  it('book the body’s top-level item and answer in that version’s shape', async () => {
    const booked = await book(
      t.app,
      customer,
      {
        experience: { id: plain.experienceId },
        arrival: '2031-04-01',
        arrivalTime: 1400,
        quantity: 2,
        amount: 51,
      },
      OLD,
    );
    expect(booked.statusCode).toBe(201);
    expect(booked.headers['x-api-version']).toBe('2017-01-01');
    const order = booked.json();
    expect(order).toMatchObject({
      experience: { id: plain.experienceId },
      arrival: '2031-04-01',
      arrivalTime: 1400,
      quantity: 2,
      amount: 51,
    });
    expect(order.event.id).toBe(order.items[0].event.id);
    expect(order.items).toHaveLength(1);
    const read = await as(t.app, customer, {
      method: 'GET',
      url: `/api/orders/${order.id}`,
      headers: OLD,
    });
    expect(read.json()).toMatchObject({ experience: { id: plain.experienceId }, quantity: 2 });
    const current = (
      await as(t.app, customer, { method: 'GET', url: `/api/orders/${order.id}` })
    ).json();
    expect(current).not.toHaveProperty('quantity');
    expect(current).not.toHaveProperty('experience');
  });

  it('take a bare experience id, guest counts and a quote the same way', async () => {
    const quoted = await quote(
      customer,
      {
        experience: shop.experienceId,
        arrival: '2031-04-02',
        arrivalTime: 900,
        lineItems: [line(adult, 1)],
      },
      OLD,
    );
    expect(quoted.statusCode).toBe(200);
    expect(quoted.json()).toMatchObject({
      quantity: 1,
      amount: 40,
      experience: { id: shop.experienceId },
    });
  });

  it('still check the amount and refuse what the item refuses', async () => {
    const wrong = await book(
      t.app,
      customer,
      {
        experience: { id: plain.experienceId },
        arrival: '2031-04-01',
        arrivalTime: 1400,
        quantity: 1,
        amount: 1,
      },
      OLD,
    );
    expect(wrong.statusCode).toBe(409);
    const unscheduled = await book(
      t.app,
      customer,
      {
        experience: { id: plain.experienceId },
        arrival: '2031-04-01',
        arrivalTime: 1000,
        quantity: 1,
      },
      OLD,
    );
    expect(unscheduled.statusCode).toBe(409);
  });

  it('is not how current callers book: items stays required', async () => {
    const refused = await book(t.app, customer, {
      experience: { id: plain.experienceId },
      arrival: '2031-04-01',
      arrivalTime: 1400,
      quantity: 1,
    });
    expect(expectProblem(refused, 400, 'validation_failed').detail).toContain('items');
  });
});

describe('a partial item change', () => {
  it('keeps the fields an entry with an id leaves out', async () => {
    const order = (
      await book(t.app, customer, { items: [item(plain.experienceId, '2031-05-01', 900, 1)] })
    ).json();
    const resized = await as(t.app, customer, {
      method: 'PATCH',
      url: `/api/orders/${order.id}`,
      payload: { items: [{ id: order.items[0].id, quantity: 3 }] },
    });
    expect(resized.statusCode).toBe(200);
    expect(resized.json().items[0]).toMatchObject({
      id: order.items[0].id,
      experience: { id: plain.experienceId },
      arrival: '2031-05-01',
      arrivalTime: 900,
      quantity: 3,
    });
    const moved = await as(t.app, customer, {
      method: 'PATCH',
      url: `/api/orders/${order.id}`,
      payload: { items: [{ id: order.items[0].id, arrival: '2031-05-02', arrivalTime: 1400 }] },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().items[0]).toMatchObject({
      id: order.items[0].id,
      arrival: '2031-05-02',
      arrivalTime: 1400,
      quantity: 3,
    });
    expect(await seatsReserved(t.database.db, order.items[0].event.id)).toBe(0);
    expect(await seatsReserved(t.database.db, moved.json().items[0].event.id)).toBe(3);
  });

  it('still needs the departure of a new item, and an id of the order', async () => {
    const order = (
      await book(t.app, customer, { items: [item(plain.experienceId, '2031-05-03', 900, 1)] })
    ).json();
    const added = await as(t.app, customer, {
      method: 'PATCH',
      url: `/api/orders/${order.id}`,
      payload: { items: [{ id: order.items[0].id }, { quantity: 1, arrival: '2031-05-03' }] },
    });
    expect(expectProblem(added, 400, 'validation_failed').errors?.[0]).toMatchObject({
      name: 'items.1.experience',
      detail: 'is required',
    });
    const foreign = await as(t.app, customer, {
      method: 'PATCH',
      url: `/api/orders/${order.id}`,
      payload: { items: [{ id: 'f'.repeat(24), quantity: 2 }] },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors[0].name).toMatch(/^items\.0\./);
  });
});
