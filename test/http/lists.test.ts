/**
 * The list endpoints through HTTP: the spec's equivalent queries, authorization filters,
 * paging (keyset and skip), sorting, counting, and a 400 naming the parameter for every kind
 * of bad input.
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
import { insertEvent, insertExperience, insertOrder } from '../helpers/factories.js';

let t: TestApp;
let admin: Account;
let seller: Account;
let other: Account;
let customer: Account;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  admin = await createAdmin(t);
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  other = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  customer = await signUp(t.app);
  const tour = await insertExperience(db, {
    sellerId: seller.id,
    name: 'Harbour Tour',
    timezone: 'Europe/Paris',
  });
  const hidden = await insertExperience(db, {
    sellerId: seller.id,
    name: 'Secret Cave',
    visible: false,
  });
  const foreign = await insertExperience(db, {
    sellerId: other.id,
    name: 'Glacier Walk',
    price: 120,
  });
  const event = await insertEvent(db, {
    experienceId: tour,
    sellerId: seller.id,
    start: new Date('2019-11-08T09:00:00Z'),
  });
  const foreignEvent = await insertEvent(db, {
    experienceId: foreign,
    sellerId: other.id,
    start: new Date('2019-11-09T09:00:00Z'),
    max: null,
  });
  Object.assign(ids, { tour, hidden, foreign, event, foreignEvent });
  const item = (arrival: string, extra = {}) => ({
    experienceId: tour,
    eventId: event,
    arrival,
    ...extra,
  });
  // Orders of `seller`, one per arrival day; o3 has two items in range (must appear once).
  ids.o1 = await insertOrder(db, {
    sellerId: seller.id,
    customerName: 'Ann Early',
    items: [item('2019-11-07')],
  });
  ids.o2 = await insertOrder(db, {
    sellerId: seller.id,
    customerName: 'Bob First',
    items: [item('2019-11-08')],
  });
  ids.o3 = await insertOrder(db, {
    sellerId: seller.id,
    customerId: customer.id,
    customerName: 'Cy Twice',
    customerEmail: null,
    items: [item('2019-11-09'), item('2019-11-10', { quantity: 3 })],
  });
  ids.o4 = await insertOrder(db, {
    sellerId: seller.id,
    customerName: 'Di Last',
    items: [item('2019-11-10')],
  });
  ids.o5 = await insertOrder(db, {
    sellerId: seller.id,
    customerName: 'Ed Late',
    status: 'canceled',
    items: [item('2019-11-11')],
  });
  // Straddles the range: one item before it, one after, none inside.
  ids.o6 = await insertOrder(db, {
    sellerId: seller.id,
    customerName: 'Flo Gap',
    items: [item('2019-11-07'), item('2019-11-11')],
  });
  ids.o7 = await insertOrder(db, {
    sellerId: other.id,
    customerName: 'Gus Other',
    items: [{ experienceId: foreign, eventId: foreignEvent, arrival: '2019-11-09' }],
  });
});
afterAll(async () => t.close());

const list = (account: Account | null, url: string) => as(t.app, account, { method: 'GET', url });
const idsOf = async (account: Account | null, url: string): Promise<string[]> => {
  const response = await list(account, url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.map((o: { id: string }) => o.id);
};

describe('the spec’s equivalent date-range queries', () => {
  it('return the same orders, each once, newest first', async () => {
    const forms = [
      'items.arrival[in]=2019-11-08,2019-11-09,2019-11-10',
      'items.arrival[gte]=2019-11-08&items.arrival[lte]=2019-11-10',
      'items.arrival[range]=2019-11-08,2019-11-10',
    ];
    for (const account of [admin, seller]) {
      const results = await Promise.all(forms.map((q) => idsOf(account, `/api/orders?${q}`)));
      const expected =
        account === admin ? [ids.o7, ids.o4, ids.o3, ids.o2] : [ids.o4, ids.o3, ids.o2];
      for (const result of results) expect(result).toEqual(expected);
    }
  });

  it('combine with seller and arrival as the spec shows', async () => {
    expect(await idsOf(admin, `/api/orders?seller=${seller.id}&arrival=2019-11-09`)).toEqual([
      ids.o3,
    ]);
    expect(
      await idsOf(
        admin,
        `/api/orders?seller=${seller.id}&items.arrival[range]=2019-11-08,2019-11-10`,
      ),
    ).toEqual([ids.o4, ids.o3, ids.o2]);
  });

  it('evaluate item filters per item: one item must satisfy all of them', async () => {
    // o6 has an item before and an item after the range, none inside.
    expect(
      await idsOf(admin, '/api/orders?items.arrival[gt]=2019-11-07&items.arrival[lt]=2019-11-11'),
    ).not.toContain(ids.o6);
    expect(
      await idsOf(admin, '/api/orders?items.arrival=2019-11-10&items.quantity[gte]=3'),
    ).toEqual([ids.o3]);
    expect(
      await idsOf(admin, '/api/orders?items.arrival=2019-11-09&items.quantity[gte]=3'),
    ).toEqual([]);
  });
});

describe('authorization filters', () => {
  it('show a seller only its own orders, whatever it asks for', async () => {
    const own = await idsOf(seller, '/api/orders?limit=100');
    expect(own).toHaveLength(6);
    expect(own).not.toContain(ids.o7);
    expect(await idsOf(seller, `/api/orders?seller=${other.id}`)).toEqual([]);
    expect(await idsOf(seller, `/api/orders?id=${ids.o7}`)).toEqual([]);
    expect(
      await idsOf(seller, `/api/orders?seller[in]=${seller.id},${other.id}&limit=100`),
    ).toHaveLength(6);
  });

  it('show a customer the orders it booked, and an admin everything', async () => {
    expect(await idsOf(customer, '/api/orders')).toEqual([ids.o3]);
    expect(await idsOf(admin, '/api/orders?limit=100')).toHaveLength(7);
  });

  it('need credentials for orders and events', async () => {
    expectProblem(await list(null, '/api/orders'), 401, 'authentication_required');
    expectProblem(await list(null, '/api/events'), 401, 'authentication_required');
  });

  it('show visible experiences to everyone and hidden ones to their seller', async () => {
    const anonymous = await idsOf(null, '/api/experiences');
    expect(anonymous.sort()).toEqual([ids.tour, ids.foreign].sort());
    expect(await idsOf(null, '/api/experiences?visible=false')).toEqual([]);
    expect(await idsOf(seller, '/api/experiences?visible=false')).toEqual([ids.hidden]);
    expect(await idsOf(other, '/api/experiences?visible=false')).toEqual([]);
  });

  it('answer the same query, repeated by two sellers in turn, with each seller’s own rows', async () => {
    // A list's compiled query is kept by its parameters and the caller's scope
    // (query/compiled-lists.ts), one miss in eight at random: over 40 rounds a query one
    // seller asked is kept before the other asks it, but for a 0.5 % chance.
    const events = '/api/events?start[gte]=2019-01-01T00:00:00Z';
    const orders = '/api/orders?limit=100';
    for (let round = 0; round < 40; round++) {
      expect(await idsOf(seller, events)).toEqual([ids.event]);
      expect(await idsOf(other, events)).toEqual([ids.foreignEvent]);
      expect(await idsOf(other, orders)).toEqual([ids.o7]);
      expect(await idsOf(customer, orders)).toEqual([ids.o3]);
    }
  });

  it('show a seller its own events only', async () => {
    expect(await idsOf(seller, '/api/events')).toEqual([ids.event]);
    expect(await idsOf(seller, `/api/events?experience=${ids.foreign}`)).toEqual([]);
    expect((await idsOf(admin, '/api/events')).sort()).toEqual(
      [ids.event, ids.foreignEvent].sort(),
    );
  });
});

describe('fields', () => {
  it('searches names without regard to case, with % and _ literal', async () => {
    expect(await idsOf(admin, '/api/orders?customerName[contains]=TWICE')).toEqual([ids.o3]);
    expect(await idsOf(admin, '/api/orders?customerName[startsWith]=ann')).toEqual([ids.o1]);
    expect(await idsOf(admin, '/api/orders?customerName[endsWith]=LATE')).toEqual([ids.o5]);
    expect(await idsOf(admin, '/api/orders?customerName[contains]=%25')).toEqual([]);
    expect(await idsOf(admin, '/api/orders?customerName[contains]=_')).toEqual([]);
    expect(await idsOf(null, '/api/experiences?name[contains]=harbour')).toEqual([ids.tour]);
  });

  it('lets notEqual and doesNotContain match empty fields', async () => {
    const all = await idsOf(admin, '/api/orders?customerEmail[notEqual]=jane@example.com');
    expect(all).toEqual([ids.o3]);
    expect(await idsOf(admin, '/api/orders?customerEmail[doesNotContain]=jane&limit=100')).toEqual([
      ids.o3,
    ]);
    expect(await idsOf(admin, '/api/orders?customerEmail[exists]=false')).toEqual([ids.o3]);
    expect(await idsOf(admin, `/api/orders?customer[exists]=true`)).toEqual([ids.o3]);
  });

  it('filters events by datetime with the offset written as + (encoded or not)', async () => {
    expect(await idsOf(admin, '/api/events?start=2019-11-08T10:00:00%2B01:00')).toEqual([
      ids.event,
    ]);
    expect(await idsOf(admin, '/api/events?start=2019-11-08T10:00:00+01:00')).toEqual([ids.event]);
    expect(await idsOf(admin, '/api/events?start[gt]=2019-11-08T10:00:00Z')).toEqual([
      ids.foreignEvent,
    ]);
    expect(await idsOf(admin, '/api/events?max[exists]=false')).toEqual([ids.foreignEvent]);
    expect(await idsOf(admin, '/api/events?open[gte]=10')).toEqual([ids.event]);
  });

  it('shows event times in the experience’s time zone', async () => {
    const response = await list(admin, `/api/events?id=${ids.event}`);
    expect(response.json().data[0]).toMatchObject({
      start: '2019-11-08T10:00:00+01:00',
      end: '2019-11-08T12:00:00+01:00',
      title: 'Harbour Tour',
    });
  });

  it('ignores the reserved parameters private and apiKey', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/orders?private=true&apiKey=${encodeURIComponent(admin.apiKey)}&limit=1`,
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('paging and sorting', () => {
  it('pages by keyset in the default order, visiting every order exactly once', async () => {
    const seen: string[] = [];
    let url: string | null = '/api/orders?limit=2';
    const links: string[] = [];
    while (url) {
      links.push(url);
      const response = await list(admin, url);
      const body = response.json();
      seen.push(...body.data.map((o: { id: string }) => o.id));
      url = body.paging.next;
    }
    expect(seen).toEqual([ids.o7, ids.o6, ids.o5, ids.o4, ids.o3, ids.o2, ids.o1]);
    expect(links[1]).toBe(`/api/orders?id[lt]=${ids.o6}&limit=2`);
    expect(links.every((l) => !l.includes('skip'))).toBe(true);
  });

  it('repeats the filters in next, replaces id[lt], and never repeats apiKey', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/orders?seller=${seller.id}&id[lt]=ffffffffffffffffffffffff&limit=2&apiKey=${encodeURIComponent(admin.apiKey)}`,
    });
    const next = response.json().paging.next as string;
    expect(next).toBe(`/api/orders?seller=${seller.id}&id[lt]=${ids.o5}&limit=2`);
  });

  it('pages by skip in any other order, and counts on request', async () => {
    const first = (await list(admin, '/api/orders?sort=customerName&limit=3&count=true')).json();
    expect(first.data.map((o: { customerName: string }) => o.customerName)).toEqual([
      'Ann Early',
      'Bob First',
      'Cy Twice',
    ]);
    expect(first.paging).toEqual({
      next: '/api/orders?sort=customerName&count=true&limit=3&skip=3',
      total: 7,
    });
    const second = (await list(admin, first.paging.next)).json();
    expect(second.data.map((o: { customerName: string }) => o.customerName)).toEqual([
      'Di Last',
      'Ed Late',
      'Flo Gap',
    ]);
    const last = (await list(admin, second.paging.next)).json();
    expect(last.data).toHaveLength(1);
    expect(last.paging.next).toBeNull();
  });

  it('sorts descending with -field and breaks ties by id', async () => {
    const body = (await list(admin, '/api/orders?sort=-arrival&limit=3')).json();
    expect(body.data.map((o: { arrival: string }) => o.arrival)).toEqual([
      '2019-11-11',
      '2019-11-10',
      '2019-11-09',
    ]);
    const ties = await idsOf(admin, '/api/orders?sort=arrival&arrival=2019-11-07');
    expect(ties).toEqual([ids.o1, ids.o6]);
  });

  it('takes offset as skip on every list (integrations page with limit/offset)', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const lists = Object.entries(doc.paths as Record<string, { get?: { responses: object } }>)
      .filter(
        ([path, item]) =>
          item.get && !path.includes('{') && /List"/.test(JSON.stringify(item.get.responses)),
      )
      .map(([path]) => path);
    expect(lists).toEqual(
      expect.arrayContaining(['/api/orders', '/api/sellers', '/api/experiences']),
    );
    for (const path of lists) {
      // Guest types are listed for one seller or experience at a time (docs/query-language.md).
      const narrowed = path === '/api/demographics' ? `seller=${admin.id}&` : '';
      const res = await list(admin, `${path}?${narrowed}limit=20&offset=0`);
      expect(res.statusCode, path).toBe(200);
    }
    const bySkip = await idsOf(admin, '/api/orders?sort=customerName&limit=2&skip=2');
    expect(await idsOf(admin, '/api/orders?sort=customerName&limit=2&offset=2')).toEqual(bySkip);
    expect(await idsOf(admin, '/api/orders?sort=customerName&limit=2&offset=2&skip=2')).toEqual(
      bySkip,
    );
    const both = await list(admin, '/api/orders?limit=2&offset=2&skip=4');
    expect(expectProblem(both, 400, 'invalid_paging').errors?.[0]).toMatchObject({
      in: 'query',
      name: 'offset',
    });
  });

  it('has no next link on the last page and no total unless asked', async () => {
    const body = (await list(admin, '/api/orders?limit=100')).json();
    expect(body.paging).toEqual({ next: null });
  });
});

describe('bad input: a 400 naming the parameter, never ignored', () => {
  const cases: [string, string, string][] = [
    ['colour=red', 'unknown_field', 'colour'],
    ['arrival[near]=2019-11-08', 'unknown_operator', 'arrival[near]'],
    ['customerName[gt]=A', 'operator_not_allowed', 'customerName[gt]'],
    ['status[contains]=conf', 'operator_not_allowed', 'status[contains]'],
    ['arrival=2019-02-30', 'invalid_value', 'arrival'],
    ['amount[gt]=ten', 'invalid_value', 'amount[gt]'],
    ['seller=42', 'invalid_value', 'seller'],
    ['status=open', 'invalid_value', 'status'],
    ['createdAt[gt]=2019-11-08T10:00:00', 'invalid_value', 'createdAt[gt]'],
    ['items.arrival[range]=2019-11-08', 'wrong_value_count', 'items.arrival[range]'],
    ['items.quantity[exists]=maybe', 'invalid_value', 'items.quantity[exists]'],
    ['seller=a&seller=b', 'repeated_parameter', 'seller'],
    ['limit=0', 'invalid_paging', 'limit'],
    ['limit=101', 'invalid_paging', 'limit'],
    ['skip=-5', 'invalid_paging', 'skip'],
    ['sort=items.arrival', 'invalid_sort', 'sort'],
    ['sort=-customerEmail', 'invalid_sort', 'sort'],
    ['count=yes', 'invalid_parameter', 'count'],
    ['arrival[gte=2019-11-08', 'invalid_parameter', 'arrival[gte'],
  ];
  it.each(cases)('%s', async (query, code, parameter) => {
    const body = expectProblem(await list(admin, `/api/orders?${query}`), 400, code);
    expect(body.errors).toEqual([{ in: 'query', name: parameter, detail: expect.any(String) }]);
    expect(body.detail).toContain(parameter);
  });

  it('lists the filterable fields and the operators in its messages', async () => {
    const unknown = expectProblem(
      await list(admin, '/api/orders?colour=red'),
      400,
      'unknown_field',
    );
    expect(unknown.detail).toContain('customerName, customerEmail, shortCode, status, arrival');
    const op = expectProblem(
      await list(admin, '/api/events?start[contains]=x'),
      400,
      'operator_not_allowed',
    );
    expect(op.detail).toContain('equals, notEqual, gt, gte, lt, lte, range, in, nin, exists');
  });
});

describe('documentation', () => {
  it('describes the query language on every list endpoint in the OpenAPI document', async () => {
    const { QUERY_LANGUAGE_SUMMARY } = await import('../../src/query/describe.js');
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const path of ['/api/orders', '/api/events', '/api/experiences']) {
      const operation = doc.paths[path].get;
      expect(operation.description, path).toContain(QUERY_LANGUAGE_SUMMARY);
      expect(Object.keys(operation.responses)).toEqual(
        expect.arrayContaining(['200', '400', '500']),
      );
    }
  });
});
