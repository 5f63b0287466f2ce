/**
 * Inputs that were 500s (issue 10, item 5), each now a 400 in the documented format that
 * changes nothing: text PostgreSQL cannot store, integers past a column's range, JSON nested
 * thousands deep, malformed percent-encoding, and older versions' rewrites fed garbage ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  basic,
  createTestApp,
  expectProblem,
  signUp,
  uniqueEmail,
  type Account,
  type TestApp,
} from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';

let t: TestApp;
let shop: Shop;
let customer: Account;
beforeAll(async () => {
  t = await createTestApp({ BOOKING_ENV: 'sandbox' });
  shop = await openShop(t.app);
  customer = await signUp(t.app);
});
afterAll(async () => t.close());

const count = async (table: 'users' | 'experiences' | 'orders' | 'events' | 'guides') =>
  Number(
    (
      await t.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';

describe('text the database cannot store', () => {
  it.each([
    ['a NUL character', NUL],
    ['a lone surrogate', LONE],
  ])('refuses %s in any field, key or value, and stores nothing', async (_, bad) => {
    const before = await Promise.all([count('users'), count('experiences'), count('orders')]);
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      payload: { name: bad, email: uniqueEmail(), password: 'long enough pass' },
    });
    expect(expectProblem(signup, 400, 'validation_failed').errors?.[0]).toMatchObject({
      in: 'body',
      name: 'name',
    });
    expectProblem(
      await as(t.app, shop.seller, {
        method: 'POST',
        url: '/api/experiences',
        payload: {
          name: 'Fine',
          price: 1,
          priceType: 'person',
          currency: 'USD',
          duration: 60,
          schedules: [{ name: bad, type: 'available', repeat: 'weekly', days: [1], times: [900] }],
        },
      }),
      400,
      'validation_failed',
    );
    expectProblem(
      await book(t.app, shop.seller, { customerName: bad, items: [item(shop.experienceId)] }),
      400,
      'validation_failed',
    );
    for (const pairs of [
      { [`acme/app/${bad}`]: 1 },
      { 'acme/app/k': bad },
      { 'acme/app/k': { [bad]: 1 } },
    ]) {
      expectProblem(
        await as(t.app, customer, {
          method: 'POST',
          url: `/api/users/${customer.id}/meta`,
          payload: pairs,
        }),
        400,
        'validation_failed',
      );
    }
    // In a query: NUL percent-encoded, and the surrogate as the (invalid) UTF-8 it would be.
    const encoded = bad === NUL ? encodeURIComponent(bad) : 'a%ED%A0%80b';
    const query = await as(t.app, shop.seller, {
      method: 'GET',
      url: `/api/orders?customerName[contains]=${encoded}`,
    });
    expect(query.statusCode, query.body).toBe(400);
    expect(await Promise.all([count('users'), count('experiences'), count('orders')])).toEqual(
      before,
    );
  });

  it('answers Basic credentials with such text as wrong credentials (401), not 500', async () => {
    for (const email of [`x${NUL}@example.com`, `x${LONE}@example.com`]) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/users/me',
        headers: { authorization: basic(email, 'whatever password') },
      });
      expectProblem(response, 401, 'invalid_credentials');
    }
  });
});

describe('numbers past what a column holds', () => {
  it.each([2 ** 31, 2 ** 53, 1e308])('refuses %d seats anywhere seats are counted', async (big) => {
    const before = await count('experiences');
    for (const group of [{ outingMax: big }, { orderMax: big }, { orderMin: big }]) {
      expectProblem(
        await as(t.app, shop.seller, {
          method: 'PUT',
          url: `/api/experiences/${shop.experienceId}`,
          payload: { group },
        }),
        400,
        'validation_failed',
      );
    }
    expectProblem(
      await as(t.app, shop.seller, {
        method: 'POST',
        url: '/api/events',
        payload: { experience: { id: shop.experienceId }, start: '2030-06-01T09:00', max: big },
      }),
      400,
      'validation_failed',
    );
    expect(await count('experiences')).toBe(before);
    expect(await count('events')).toBe(0);
  });
});

describe('JSON nested deeper than any object of the API', () => {
  it('refuses metadata nested thousands of levels deep before measuring it', async () => {
    const deep = `${'{"d":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const response = await as(t.app, customer, {
      method: 'POST',
      url: `/api/users/${customer.id}/meta`,
      headers: { 'content-type': 'application/json' },
      payload: `{"acme/app/deep": ${deep}}`,
    });
    expect(expectProblem(response, 400, 'validation_failed').detail).toMatch(/nested deeper/);
    const me = await as(t.app, customer, {
      method: 'GET',
      url: `/api/users/${customer.id}?private=true`,
    });
    expect(me.json().metadata).toEqual({});
  });
});

describe('malformed percent-encoding in a query', () => {
  it.each(['%ZZ', '%E0%A4%A', '%C3', 'x%'])('is a 400 for %s, not literal text', async (raw) => {
    const response = await as(t.app, shop.seller, {
      method: 'GET',
      url: `/api/orders?customerName[contains]=${raw}`,
    });
    expect(expectProblem(response, 400, 'invalid_parameter').errors?.[0]).toMatchObject({
      in: 'query',
      name: 'customerName[contains]',
    });
  });
});

describe('malformed percent-encoding among well-formed parameters', () => {
  it.each([
    ['limit=5&customerName[contains]=%C3&sort=-id', 'customerName[contains]'],
    // An escape cut by `&`: each side is malformed on its own, the first is named.
    ['customerName[contains]=%C3&%A9=1', 'customerName[contains]'],
    ['limit=5&customerName%5Bcontains%5D=caf%C3%A9&x%ZZ=1', 'x%ZZ'],
  ])('names the one at fault in %s', async (query, name) => {
    const response = await as(t.app, shop.seller, { method: 'GET', url: `/api/orders?${query}` });
    expect(expectProblem(response, 400, 'invalid_parameter').errors?.[0]).toMatchObject({
      in: 'query',
      name,
    });
  });

  it('takes well-formed escapes, of brackets and of UTF-8 text, as a query', async () => {
    const response = await as(t.app, shop.seller, {
      method: 'GET',
      url: '/api/orders?customerName%5Bcontains%5D=caf%C3%A9&limit=5',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().paging).toMatchObject({ next: null });
  });
});

describe('older versions fed ids that are not ids', () => {
  const OLD = { 'x-api-version': '2018-01-01' };
  it('lets validation answer before any rewrite reads the database', async () => {
    const cases = [
      { method: 'POST' as const, url: '/api/events/not-an-id/guides', payload: { id: 'nope' } },
      {
        method: 'POST' as const,
        url: `/api/events/${'a'.repeat(24)}/guides`,
        payload: { id: { id: 'x'.repeat(500) } },
      },
      { method: 'DELETE' as const, url: '/api/events/bad/guides/also-bad' },
      {
        method: 'POST' as const,
        url: '/api/events',
        payload: { experience: { id: 'zz' }, start: '2030-06-01T09:00', guides: ['bad', 5] },
      },
      {
        method: 'POST' as const,
        url: '/api/events',
        payload: {
          experience: { id: shop.experienceId },
          start: '2030-06-01T09:00',
          guides: ['x'.repeat(1000)],
        },
      },
    ];
    for (const request of cases) {
      const response = await as(t.app, shop.seller, { ...request, headers: OLD });
      expect(
        response.statusCode,
        `${request.method} ${request.url}: ${response.body}`,
      ).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, response.body).toBeLessThan(500);
    }
    expect(await count('guides')).toBe(0);
  });
});
