/**
 * `GET /api/demographics` is answered per seller or per experience: guest types live in
 * their experience's jsonb, so a list across every experience (the default order, or `id=`,
 * `code=`, `label[contains]=` alone) unnested all of them on every request, 0.5-2.3 s
 * anonymous at 200,000 experiences. Without `seller=` or `experience=` it is a 400 naming
 * what to add; with one, paging and the other filters work as on any list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, expectProblem, type TestApp } from '../helpers/app.js';
import { openShop, type Shop } from '../helpers/booking.js';

let t: TestApp;
let shop: Shop;
let ids: string[];
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app, {
    demographics: [
      { label: 'Adult', code: 'adult' },
      { label: 'Child', code: 'child', price: 10 },
      { label: 'Senior', code: 'senior', price: 12 },
    ],
  });
  const experience = await as(t.app, null, {
    method: 'GET',
    url: `/api/experiences/${shop.experienceId}`,
  });
  ids = experience.json().demographics.map((d: { id: string }) => d.id);
});
afterAll(async () => t.close());

const get = (url: string, account: Shop['seller'] | null = null) =>
  as(t.app, account, { method: 'GET', url });

describe('GET /api/demographics needs seller= or experience=', () => {
  it.each([
    '/api/demographics',
    '/api/demographics?sort=label',
    '/api/demographics?code=adult',
    '/api/demographics?label[contains]=dul',
    '/api/demographics?price[gt]=1',
    `/api/demographics?id=${'f'.repeat(24)}`,
    `/api/demographics?seller[nin]=${'f'.repeat(24)}`,
    `/api/demographics?experience[notEqual]=${'f'.repeat(24)}`,
  ])('refuses %s with a 400 naming the filter to add', async (url) => {
    for (const account of [null, shop.seller]) {
      const problem = expectProblem(await get(url, account), 400, 'invalid_parameter');
      expect(problem.errors?.[0]).toMatchObject({ in: 'query', name: 'seller' });
      expect(problem.errors?.[0]?.detail).toContain('seller=<id> or experience=<id>');
    }
  });

  it('lists a seller’s or an experience’s guest types, paging included', async () => {
    for (const filter of [
      `seller=${shop.seller.id}`,
      `experience=${shop.experienceId}`,
      `experience[in]=${shop.experienceId},${'f'.repeat(24)}`,
    ]) {
      const seen: string[] = [];
      for (let next: string | null = `/api/demographics?${filter}&limit=2`; next !== null;) {
        const response = await get(next);
        expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
        const body = response.json();
        seen.push(...body.data.map((d: { id: string }) => d.id));
        next = seen.length < 10 ? body.paging.next : null;
      }
      expect([...seen].sort()).toEqual([...ids].sort());
      const adult = await get(`/api/demographics?${filter}&code=adult`);
      expect(adult.json().data.map((d: { code: string }) => d.code)).toEqual(['adult']);
    }
  });
});
