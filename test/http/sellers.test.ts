/**
 * `GET /api/sellers` (the sellers the caller may act for, with its roles at each) and
 * `GET /api/sellers/{id}` (a seller's public profile; its email to its staff only).
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
import { makeDelegate } from '../helpers/guides.js';

let t: TestApp;
let first: Account;
let second: Account;
let desk: Account;
beforeAll(async () => {
  t = await createTestApp();
  first = await signUp(t.app, { name: 'Alpha Tours', roles: ['ROLE_SELLER'] });
  second = await signUp(t.app, { name: 'Beta Boats', roles: ['ROLE_SELLER'] });
  desk = await delegate(t.app, first, ['ROLE_RESERVATION'], 'Desk Person');
  await makeDelegate(t.app, second, desk, ['ROLE_CURATOR', 'ROLE_GUIDE_MANAGER']);
});
afterAll(async () => t.close());

const list = (account: Account | null, query = '') =>
  as(t.app, account, { method: 'GET', url: `/api/sellers${query}` });

describe('GET /api/sellers', () => {
  it('lists the sellers a delegate may act for, with its roles at each', async () => {
    const response = await list(desk, '?sort=name');
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual([
      {
        object: 'seller',
        id: first.id,
        name: 'Alpha Tours',
        email: first.email,
        roles: ['ROLE_RESERVATION'],
      },
      {
        object: 'seller',
        id: second.id,
        name: 'Beta Boats',
        email: second.email,
        roles: ['ROLE_CURATOR', 'ROLE_GUIDE_MANAGER'],
      },
    ]);
  });

  it('shows a seller itself, nobody else to a customer, and everyone to an admin', async () => {
    expect((await list(first)).json().data.map((s: { id: string }) => s.id)).toEqual([first.id]);
    expect((await list(first)).json().data[0].roles).toEqual(['ROLE_SELLER']);
    const customer = await signUp(t.app);
    expect((await list(customer, '?count=true')).json()).toEqual({
      data: [],
      paging: { next: null, total: 0 },
    });
    const admin = await createAdmin(t);
    const all = (await list(admin, `?id[in]=${first.id},${second.id},${customer.id}`)).json();
    expect(all.data.map((s: { id: string }) => s.id).sort()).toEqual([first.id, second.id].sort());
  });

  it('speaks the query language, and needs credentials', async () => {
    expect(
      (await list(desk, '?name[startsWith]=beta')).json().data.map((s: { id: string }) => s.id),
    ).toEqual([second.id]);
    expectProblem(await list(desk, '?email=x'), 400, 'unknown_field');
    expectProblem(await list(null), 401, 'authentication_required');
  });
});

describe('GET /api/sellers/{id}', () => {
  it("shows the public profile to anyone, the email to the seller's staff", async () => {
    const anonymous = await as(t.app, null, { method: 'GET', url: `/api/sellers/${first.id}` });
    expect(anonymous.json()).toEqual({
      object: 'seller',
      id: first.id,
      name: 'Alpha Tours',
      roles: [],
    });
    const staff = await as(t.app, desk, { method: 'GET', url: `/api/sellers/${first.id}` });
    expect(staff.json()).toMatchObject({ email: first.email, roles: ['ROLE_RESERVATION'] });
  });

  it('is 404 for an account that is not a seller, or none', async () => {
    const customer = await signUp(t.app);
    for (const id of [customer.id, 'f'.repeat(24)]) {
      expectProblem(
        await as(t.app, null, { method: 'GET', url: `/api/sellers/${id}` }),
        404,
        'not_found',
      );
    }
  });
});
