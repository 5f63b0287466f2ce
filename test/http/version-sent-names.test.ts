/**
 * An older version's request rewrite moves and renames what the client sent (before
 * v2017-09-28 an order's item fields at the top of the body become `items[0]`; before
 * v2018-02-15 `arrival=a,b` becomes `items.arrival[range]`). Answers about the request name
 * what the client sent, not the rewritten request: the `errors` of a problem, its `detail`,
 * and `X-Ignored-Fields`. What the client itself sent under `items` keeps its names.
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
import { book, item, openShop, type Shop } from '../helpers/booking.js';

const V2017 = { 'x-api-version': '2017-01-01' };
const V2018 = { 'x-api-version': '2018-01-01' };

let t: TestApp;
let shop: Shop;
let customer: Account;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
  customer = await signUp(t.app);
});
afterAll(async () => t.close());

const names = (problem: { errors?: { name: string }[] }) => problem.errors?.map((e) => e.name);

describe('body errors before 2017-09-28', () => {
  it.each(['/api/orders', '/api/orders/prepare'])(
    'POST %s names the top-level fields the client sent',
    async (url) => {
      const send = (payload: object, headers = V2017) =>
        as(t.app, customer, { method: 'POST', url, payload, headers });
      const time = expectProblem(
        await send({ experience: shop.experienceId, arrival: '2030-08-01', arrivalTime: 2500 }),
        400,
        'validation_failed',
      );
      expect(names(time)).toEqual(['arrivalTime']);
      expect(time.detail).toMatch(/^arrivalTime /);
      expect(time.detail).not.toMatch(/items/);

      const nested = expectProblem(
        await send({
          experience: { id: shop.experienceId },
          arrival: '2030-08-01',
          arrivalTime: 900,
          demographics: [{ demographic: { id: shop.experienceId }, quantity: -1 }],
        }),
        400,
        'validation_failed',
      );
      expect(names(nested)).toEqual(['demographics.0.quantity']);
      expect(nested.detail).toMatch(/^demographics\.0\.quantity /);

      // A bare experience id that is not an id is named as the field the client sent.
      const bare = expectProblem(
        await send({ experience: 'nope', arrival: '2030-08-01', arrivalTime: 900 }),
        400,
        'validation_failed',
      );
      expect(names(bare)).toEqual(['experience']);

      // A body in the multi-item form keeps its names.
      const multi = expectProblem(
        await send({
          items: [item(shop.experienceId), { ...item(shop.experienceId), arrivalTime: 2500 }],
        }),
        400,
        'validation_failed',
      );
      expect(names(multi)).toEqual(['items.1.arrivalTime']);

      // From 2017-09-28 on nothing is renamed.
      const current = expectProblem(
        await send(
          { items: [{ ...item(shop.experienceId), arrivalTime: 2500 }] },
          {
            'x-api-version': '2017-09-28',
          },
        ),
        400,
        'validation_failed',
      );
      expect(names(current)).toEqual(['items.0.arrivalTime']);
    },
  );

  it('names the ignored fields as sent in X-Ignored-Fields', async () => {
    const booked = await book(
      t.app,
      customer,
      {
        experience: { id: shop.experienceId, name: 'Kayak' },
        arrival: '2030-08-02',
        arrivalTime: 900,
        quantity: 1,
        event: { id: 'x' },
        lineItems: [{ demographic: null, quantity: 1, label: 'Adult' }],
      },
      V2017,
    );
    expect(booked.statusCode, booked.body).toBe(201);
    expect(String(booked.headers['x-ignored-fields']).split(', ').sort()).toEqual([
      'event',
      'experience.name',
      'lineItems.0.label',
    ]);
  });

  it('names the fields of a change to the order’s one item as sent', async () => {
    const booked = await book(t.app, customer, { items: [item(shop.experienceId, '2030-08-03')] });
    expect(booked.statusCode, booked.body).toBe(201);
    const change = (payload: object) =>
      as(t.app, customer, {
        method: 'PATCH',
        url: `/api/orders/${booked.json().id}`,
        payload,
        headers: V2017,
      });
    for (const [payload, name] of [
      [{ arrivalTime: 2500 }, 'arrivalTime'],
      [{ quantity: 0, customerName: 'Ed' }, 'quantity'],
      // The service's own refusal (lineItems and quantity disagree), named as sent too.
      [{ lineItems: [{ demographic: null, quantity: 1 }], quantity: 2 }, 'lineItems'],
    ] as const) {
      const refused = expectProblem(await change(payload), 400, 'validation_failed');
      expect(names(refused), JSON.stringify(payload)).toEqual([name]);
      expect(refused.detail).not.toMatch(/items/);
    }
  });
});

describe('query errors of GET /api/orders before 2018-02-15', () => {
  const list = (query: string, headers: Record<string, string>) =>
    as(t.app, customer, { method: 'GET', url: `/api/orders?${query}`, headers });

  it.each([V2017, V2018])('name the parameters as sent (%o)', async (headers) => {
    for (const [query, name] of [
      ['arrival=someday', 'arrival'],
      ['arrival=2030-01-01,someday', 'arrival'],
      ['status=abc', 'status'],
      ['experience[startsWith]=x', 'experience[startsWith]'],
      ['createdAt=a,b', 'createdAt'],
    ] as const) {
      const response = await list(query, headers);
      expect(response.statusCode, `${query} ${response.body}`).toBe(400);
      const problem = response.json<{ errors: { in: string; name: string }[]; detail: string }>();
      expect(problem.errors, query).toEqual([expect.objectContaining({ in: 'query', name })]);
      expect(problem.detail.startsWith(`${name}: `), `${query} ${problem.detail}`).toBe(true);
    }
  });

  it('keep the names of parameters sent in the current form', async () => {
    const response = await list('items.arrival[range]=2030-01-01,someday', V2018);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      expect.objectContaining({ in: 'query', name: 'items.arrival[range]' }),
    ]);
  });
});
