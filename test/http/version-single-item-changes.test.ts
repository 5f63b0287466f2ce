/**
 * Before v2017-09-28 Multi-item Orders an order showed its item's fields at the top
 * (`quantity`, `arrivalTime`, `experience`...), and those callers change an order the same
 * way: `PUT`/`PATCH /api/orders/{id}` with those fields at the top change the order's one
 * live item (`items: [{id, ...}]`). An order with several live items is 400, naming the
 * field and the multi-item form; an order the caller cannot see is the route's 404.
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

const OLD = { 'x-api-version': '2017-01-01' };

interface OrderBody {
  id: string;
  status: string;
  customerName: string;
  quantity?: number;
  arrivalTime?: number;
  items: { id: string; quantity: number; arrival: string; arrivalTime: number; status: number }[];
}

let t: TestApp;
let shop: Shop;
let customer: Account;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
  customer = await signUp(t.app);
});
afterAll(async () => t.close());

async function order(items: ReturnType<typeof item>[], who: Account = customer) {
  const booked = await book(t.app, who, { items });
  if (booked.statusCode !== 201) throw new Error(booked.body);
  return booked.json<OrderBody>();
}

const change = (
  method: 'PUT' | 'PATCH',
  id: string,
  payload: unknown,
  headers: Record<string, string> = OLD,
  who: Account | null = customer,
) => as(t.app, who, { method, url: `/api/orders/${id}`, payload: payload as object, headers });

const read = async (id: string) =>
  (await as(t.app, customer, { method: 'GET', url: `/api/orders/${id}` })).json<OrderBody>();

describe.each(['PATCH', 'PUT'] as const)('%s /api/orders/{id} before 2017-09-28', (method) => {
  it('applies the top-level item fields to the order’s one item', async () => {
    const booked = await order([item(shop.experienceId, '2030-07-01', 900, 1)]);
    const changed = await change(method, booked.id, { quantity: 3 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.headers['x-ignored-fields']).toBeUndefined();
    const body = changed.json<OrderBody>();
    expect(body.quantity).toBe(3);
    expect(body.items).toEqual([expect.objectContaining({ id: booked.items[0]!.id, quantity: 3 })]);

    const moved = await change(method, booked.id, {
      customerName: 'Bea',
      arrivalTime: '1400',
      experience: shop.experienceId,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const after = await read(booked.id);
    expect(after.customerName).toBe('Bea');
    expect(after.items).toEqual([
      expect.objectContaining({ id: booked.items[0]!.id, quantity: 3, arrivalTime: 1400 }),
    ]);
  });

  it('changes the live item when the others are canceled', async () => {
    const booked = await order([
      item(shop.experienceId, '2030-07-02', 900, 1),
      item(shop.experienceId, '2030-07-03', 900, 1),
    ]);
    const [first, second] = booked.items;
    const dropped = await change(method, booked.id, { items: [{ id: second!.id }] }, {});
    expect(dropped.statusCode, dropped.body).toBe(200);
    const changed = await change(method, booked.id, { quantity: 2 });
    expect(changed.statusCode, changed.body).toBe(200);
    const after = await read(booked.id);
    expect(after.items).toEqual([
      expect.objectContaining({ id: first!.id, status: 700, quantity: 1 }),
      expect.objectContaining({ id: second!.id, status: 200, quantity: 2 }),
    ]);
  });

  it('refuses them on an order with several live items, naming the field and the way', async () => {
    const booked = await order([
      item(shop.experienceId, '2030-07-04', 900, 1),
      item(shop.experienceId, '2030-07-05', 900, 1),
    ]);
    const refused = await change(method, booked.id, { quantity: 3, customerName: 'Cy' });
    const problem = expectProblem(refused, 400, 'validation_failed');
    expect(problem.errors).toEqual([
      expect.objectContaining({
        in: 'body',
        name: 'quantity',
        detail: expect.stringMatching(/2 items/),
      }),
    ]);
    expect(problem.detail).toMatch(/`items`/);
    expect(problem.detail).toMatch(/2017-09-28/);
    const after = await read(booked.id);
    expect(after.customerName).not.toBe('Cy');
    expect(after.items.map((i) => i.quantity)).toEqual([1, 1]);

    // The multi-item form works on every version.
    const both = await change(method, booked.id, {
      items: [{ id: booked.items[0]!.id, quantity: 2 }, { id: booked.items[1]!.id }],
    });
    expect(both.statusCode, both.body).toBe(200);
    expect((await read(booked.id)).items.map((i) => i.quantity)).toEqual([2, 1]);
  });

  it('leaves the route its answers: 404, 401, 409 for a canceled order', async () => {
    const stranger = await signUp(t.app);
    const theirs = await order(
      [
        item(shop.experienceId, '2030-07-06', 900, 1),
        item(shop.experienceId, '2030-07-07', 900, 1),
      ],
      stranger,
    );
    // Someone else's order: the route's 404, not a 400 telling how many items it has.
    expectProblem(await change(method, theirs.id, { quantity: 2 }), 404, 'not_found');
    expectProblem(
      await change(method, '0123456789abcdef01234567', { quantity: 2 }),
      404,
      'not_found',
    );
    const malformed = await change(method, 'not-an-id', { quantity: 2 });
    expect(malformed.statusCode).toBeLessThan(500);
    expect(malformed.statusCode).toBe(
      (await change(method, 'not-an-id', { quantity: 2 }, {})).statusCode,
    );
    expectProblem(
      await change(method, theirs.id, { quantity: 2 }, OLD, null),
      401,
      'authentication_required',
    );

    const mine = await order([item(shop.experienceId, '2030-07-08', 900, 1)]);
    const canceled = await as(t.app, customer, {
      method: 'POST',
      url: `/api/orders/${mine.id}/cancel`,
    });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expectProblem(await change(method, mine.id, { quantity: 2 }), 409, 'already_canceled');
  });

  it('never answers 500 to values of any kind', async () => {
    const booked = await order([item(shop.experienceId, '2030-07-09', 900, 1)]);
    const bodies: unknown[] = [
      { quantity: 'many' },
      { quantity: null },
      { experience: 5 },
      { experience: null },
      { experience: { id: 'nope' } },
      { arrival: 'soon' },
      { demographics: 'all' },
      { lineItems: [{}] },
      { status: 700 },
      [],
      'text',
    ];
    for (const payload of bodies) {
      const response = await change(method, booked.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBeLessThan(500);
    }
  });

  it('leaves the order’s own status word where it is: ignored, as before', async () => {
    const booked = await order([item(shop.experienceId, '2030-07-10', 900, 1)]);
    const changed = await change(method, booked.id, { quantity: 2, status: 'confirmed' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.headers['x-ignored-fields']).toBe('status');
    expect((await read(booked.id)).items[0]!.quantity).toBe(2);
  });
});

describe('from 2017-09-28 on', () => {
  it('top-level item fields of a change are not known fields (ignored, or 400 strictly)', async () => {
    const booked = await order([item(shop.experienceId, '2030-07-11', 900, 1)]);
    const lenient = await change(
      'PATCH',
      booked.id,
      { quantity: 3, customerName: 'Di' },
      {
        'x-api-version': '2017-09-28',
      },
    );
    expect(lenient.statusCode, lenient.body).toBe(200);
    expect(lenient.headers['x-ignored-fields']).toBe('quantity');
    expect((await read(booked.id)).items[0]!.quantity).toBe(1);
    expectProblem(await change('PATCH', booked.id, { quantity: 3 }, {}), 400, 'validation_failed');
  });
});
