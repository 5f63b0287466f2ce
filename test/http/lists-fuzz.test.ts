/** Arbitrary query strings at every list endpoint: never a 5xx. */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createAdmin, createTestApp, type Account, type TestApp } from '../helpers/app.js';

let t: TestApp;
let admin: Account;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createAdmin(t);
});
afterAll(async () => t.close());

const fields = [
  'id',
  'seller',
  'customerName',
  'arrival',
  'amount',
  'items.arrival',
  'start',
  'guides',
  'open',
  'name',
  'visible',
  'price',
];
const operators = ['equals', 'in', 'range', 'gte', 'contains', 'exists', 'nin', 'bogus', ''];
const piece = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }).map(encodeURIComponent),
  fc.constantFrom('%', '%%', '%zz', '[', ']', '&', '=', '+', '%00', '%E0%A4%A', ',', '..'),
  fc
    .tuple(fc.constantFrom(...fields), fc.constantFrom(...operators), fc.string())
    .map(([f, o, v]) => `${f}${o ? `[${o}]` : ''}=${v}`),
);
const queryString = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join('&'));

describe('list endpoints under arbitrary query strings', () => {
  it('answer 2xx or 4xx, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/api/orders', '/api/events', '/api/experiences'),
        queryString,
        async (path, qs) => {
          const response = await as(t.app, admin, { method: 'GET', url: `${path}?${qs}` });
          expect(response.statusCode, `${path}?${qs} -> ${response.body}`).toBeLessThan(500);
        },
      ),
      { numRuns: 400 },
    );
  });
});
