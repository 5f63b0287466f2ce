/**
 * Older versions' query rewrites turn one parameter into another (before v2018-02-15,
 * `arrival` of orders is `items.arrival`; before v2018-02-26, `guides` of events names user
 * ids and becomes `guides[in]`). Two parameters the client sent are two filters: both
 * apply, as the current language combines two filters on one field; two that become the
 * same parameter are refused as that parameter given twice (400 repeated_parameter, naming
 * what the client sent), never merged into one silently.
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
import { createEvent, delegate, idsOf } from '../helpers/guides.js';

const OLD = { 'x-api-version': '2018-01-01' };

let t: TestApp;
let shop: Shop;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
});
afterAll(async () => t.close());

describe('order filters before 2018-02-15', () => {
  let late: { id: string; createdAt: string };
  beforeAll(async () => {
    const customer = await signUp(t.app);
    const order = async (arrival: string) => {
      const response = await book(t.app, customer, { items: [item(shop.experienceId, arrival)] });
      if (response.statusCode !== 201) throw new Error(response.body);
      return response.json<{ id: string; createdAt: string }>();
    };
    await order('2030-06-01');
    late = await order('2030-06-05');
  });

  const orders = (query: string) =>
    as(t.app, shop.seller, { method: 'GET', url: `/api/orders?${query}`, headers: OLD });

  it('refuses two parameters that mean one, naming both, instead of keeping the last', async () => {
    const pairs: [string, string][] = [
      ['arrival=2030-06-01&items.arrival=2030-06-05', 'items.arrival'],
      ['items.arrival=2030-06-05&arrival=2030-06-01', 'arrival'],
      ['status=200&items.status=700', 'items.status'],
      [
        'createdAt=2000-01-01T00:00:00Z,2099-01-01T00:00:00Z&createdAt[range]=2000-01-01T00:00:00Z,2001-01-01T00:00:00Z',
        'createdAt[range]',
      ],
      ['status=200,700&items.status[in]=700', 'items.status[in]'],
    ];
    for (const [query, name] of pairs) {
      const problem = expectProblem(await orders(query), 400, 'repeated_parameter');
      expect(problem.errors, query).toEqual([expect.objectContaining({ in: 'query', name })]);
      expect(problem.detail, query).toMatch(/give one of them/i);
    }
  });

  it('keeps both filters when they are two filters on one field', async () => {
    const both = await orders('arrival=2030-06-01,2030-06-05&items.arrival[gte]=2030-06-02');
    expect(both.statusCode, both.body).toBe(200);
    expect(idsOf(both)).toEqual([late.id]);
  });
});

describe('the guides filter of events before 2018-02-26', () => {
  let userA: Account;
  let userB: Account;
  let withA: string;
  let withB: string;
  let withBoth: string;
  beforeAll(async () => {
    userA = await delegate(t.app, shop.seller, ['ROLE_GUIDE'], 'Ann');
    userB = await delegate(t.app, shop.seller, ['ROLE_GUIDE'], 'Bob');
    const event = async (start: string, guides: string[]) =>
      (await createEvent(t.app, shop.seller, shop.experienceId, start, { guides }, OLD)).id;
    withA = await event('2030-07-01T09:00', [userA.id]);
    withB = await event('2030-07-02T09:00', [userB.id]);
    withBoth = await event('2030-07-03T09:00', [userA.id, userB.id]);
  });

  const events = (query: string) =>
    as(t.app, shop.seller, {
      method: 'GET',
      url: `/api/events?experience=${shop.experienceId}&${query}&sort=id`,
      headers: OLD,
    });

  it('applies both of two filters (with A, without B)', async () => {
    const response = await events(`guides=${userA.id}&guides[nin]=${userB.id}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(idsOf(await events(`guides=${userA.id}`))).toEqual([withA, withBoth]);
    const withoutB = idsOf(await events(`guides[nin]=${userB.id}`));
    expect(withoutB).toContain(withA);
    expect(withoutB).not.toContain(withBoth);
    expect(idsOf(response)).toEqual([withA]);
    const reversed = await events(`guides[nin]=${userB.id}&guides=${userA.id}`);
    expect(idsOf(reversed)).toEqual([withA]);
  });

  it('refuses two filters that become one parameter, naming what was sent', async () => {
    const pairs: [string, string][] = [
      [`guides=${userA.id}&guides[in]=${userB.id}`, 'guides[in]'],
      [`guides[notEqual]=${userA.id}&guides[nin]=${userB.id}`, 'guides[nin]'],
      [`guides[equals]=${userA.id}&guides[in]=${userB.id}`, 'guides[in]'],
    ];
    for (const [query, name] of pairs) {
      const problem = expectProblem(await events(query), 400, 'repeated_parameter');
      expect(problem.errors, query).toEqual([expect.objectContaining({ in: 'query', name })]);
    }
    // Each alone still finds its events.
    expect(idsOf(await events(`guides[in]=${userB.id}`))).toEqual([withB, withBoth]);
  });
});
