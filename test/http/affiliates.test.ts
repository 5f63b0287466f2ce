/**
 * Affiliates (reseller credentials for OCTo): a seller issues named credentials, shown once
 * and replayed by an Idempotency-Key retry, lists them in Xola's shape without their
 * secrets, and revokes them: refused at once. The seller's own API key works as Bearer;
 * another account's does not; wrong Bearer credentials count in the failed-authentication
 * throttle with wrong API keys. Commissions take two decimals; one seller's Idempotency-Key
 * replays nothing to another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { delegate, makeDelegate } from '../helpers/guides.js';
import { createAffiliate, expectOctoError, octo } from '../helpers/octo.js';

let t: TestApp;
let seller: Account;
beforeAll(async () => {
  t = await createTestApp();
  seller = await signUp(t.app, { name: 'Bateaux Verts', roles: ['ROLE_SELLER'] });
});
afterAll(async () => t.close());

const affiliates = (account: Account, sellerId = seller.id) =>
  as(t.app, account, { method: 'GET', url: `/api/users/${sellerId}/affiliates` });

describe('affiliates', () => {
  it('issues a named credential shown once, with its commission, in Xola’s shape', async () => {
    const created = await createAffiliate(t.app, seller, {
      name: ' Klook ',
      commission: { amount: 12.5, amountType: 'percent' },
    });
    expect(created).toEqual({
      object: 'affiliate',
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      seller: { id: seller.id },
      name: 'Klook',
      commission: { amount: 12.5, amountType: 'percent' },
      createdBy: { id: seller.id },
      createdAt: expect.any(String),
      revokedAt: null,
      apiKey: expect.stringMatching(/^[A-Za-z0-9]{43}$/),
    });
    const listed = (await affiliates(seller)).json();
    const { apiKey: _key, ...view } = created;
    expect(listed.data).toEqual([view]);
    expect(JSON.stringify(listed)).not.toContain(created.apiKey);
    const supplier = await octo(t.app, created.apiKey, 'GET', '/supplier');
    expect(supplier.statusCode).toBe(200);
    expect(supplier.json()).toMatchObject({ id: seller.id, name: 'Bateaux Verts' });
  });

  it('takes any commission with two decimals, and refuses a third', async () => {
    for (const amount of [33.33, 1.15, 0.07, 99.99]) {
      const made: { id: string; commission?: unknown } = await createAffiliate(t.app, seller, {
        name: `At ${amount}`,
        commission: { amount, amountType: 'percent' },
      });
      expect(made.commission).toEqual({ amount, amountType: 'percent' });
    }
    const refused = await as(t.app, seller, {
      method: 'POST',
      url: `/api/users/${seller.id}/affiliates`,
      payload: { name: 'Three decimals', commission: { amount: 12.345, amountType: 'percent' } },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([expect.objectContaining({ name: 'commission.amount' })]);
  });

  it('replays the create, secret included, for the same Idempotency-Key', async () => {
    const send = () =>
      as(t.app, seller, {
        method: 'POST',
        url: `/api/users/${seller.id}/affiliates`,
        headers: { 'idempotency-key': 'affiliate-1' },
        payload: { name: 'Tiqets' },
      });
    const first = await send();
    const again = await send();
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(first.json().commission).toBeNull();
  });

  it('does not replay one seller’s credential to a request for another seller', async () => {
    const other = await signUp(t.app, { name: 'Bateaux Bleus', roles: ['ROLE_SELLER'] });
    const agency = await signUp(t.app, { name: 'Agency' });
    await makeDelegate(t.app, seller, agency, ['ROLE_SELLER_ADMIN']);
    await makeDelegate(t.app, other, agency, ['ROLE_SELLER_ADMIN']);
    const create = (sellerId: string) =>
      as(t.app, agency, {
        method: 'POST',
        url: `/api/users/${sellerId}/affiliates`,
        headers: { 'idempotency-key': 'klook-setup' },
        payload: { name: 'Klook' },
      });
    const first = await create(seller.id);
    expect(first.json().seller).toEqual({ id: seller.id });
    // Another path is another request: the key is refused, not answered with the first.
    const forOther = await create(other.id);
    expect(forOther.statusCode, forOther.body).toBe(422);
    expect(forOther.json().code).toBe('idempotency_key_reused');
    expect(forOther.body).not.toContain(first.json().apiKey);
    expect((await affiliates(other, other.id)).json().data).toEqual([]);
  });

  it('is the seller’s and its seller-admins’ business only', async () => {
    const stranger = await signUp(t.app);
    const admin = await delegate(t.app, seller, ['ROLE_SELLER_ADMIN'], 'Admin');
    const desk = await delegate(t.app, seller, ['ROLE_RESERVATION'], 'Desk');
    expect((await affiliates(stranger)).json().data).toEqual([]);
    expect((await affiliates(desk)).json().data).toEqual([]);
    expect((await affiliates(admin)).json().data.length).toBeGreaterThan(0);
    const refused = await as(t.app, desk, {
      method: 'POST',
      url: `/api/users/${seller.id}/affiliates`,
      payload: { name: 'Sneaky' },
    });
    expect(refused.statusCode).toBe(403);
    const bad = await as(t.app, seller, {
      method: 'POST',
      url: `/api/users/${seller.id}/affiliates`,
      payload: { name: 'x', commission: { amount: 12.345 } },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses a revoked credential at once', async () => {
    const created = await createAffiliate(t.app, seller, { name: 'Headout' });
    expect((await octo(t.app, created.apiKey, 'GET', '/products')).statusCode).toBe(200);
    const revoked = await as(t.app, seller, {
      method: 'DELETE',
      url: `/api/users/${seller.id}/affiliates/${created.id}`,
    });
    expect(revoked.statusCode).toBe(204);
    expectOctoError(await octo(t.app, created.apiKey, 'GET', '/products'), 'FORBIDDEN');
    const again = await as(t.app, seller, {
      method: 'DELETE',
      url: `/api/users/${seller.id}/affiliates/${created.id}`,
    });
    expect(again.statusCode).toBe(404);
    const listed = (await affiliates(seller)).json().data;
    expect(listed.find((a: { id: string }) => a.id === created.id).revokedAt).toEqual(
      expect.any(String),
    );
  });

  it('takes the seller’s own API key as Bearer, and no other account’s', async () => {
    expect((await octo(t.app, seller.apiKey, 'GET', '/supplier')).statusCode).toBe(200);
    const customer = await signUp(t.app);
    expectOctoError(await octo(t.app, customer.apiKey, 'GET', '/supplier'), 'FORBIDDEN');
    expectOctoError(
      await t.app.inject({
        method: 'GET',
        url: '/octo/supplier',
        headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
      }),
      'UNAUTHORIZED',
    );
  });
});

describe('failed Bearer credentials', () => {
  it('count with wrong API keys: past the limit, 429', async () => {
    const limited = await createTestApp({ AUTH_FAILURES_PER_ADDRESS: '5' });
    try {
      const owner = await signUp(limited.app, { roles: ['ROLE_SELLER'] });
      const key = (await createAffiliate(limited.app, owner)).apiKey;
      for (let i = 0; i < 3; i++)
        expectOctoError(await octo(limited.app, `wrong${i}`, 'GET', '/supplier'), 'FORBIDDEN');
      for (let i = 0; i < 2; i++) {
        const wrongKey = await limited.app.inject({
          method: 'GET',
          url: '/api/users/me',
          headers: { 'x-api-key': `wrong-api-key-${i}` },
        });
        expect(wrongKey.statusCode).toBe(i === 0 ? 401 : 429);
      }
      const throttled = await octo(limited.app, 'wrong-again', 'GET', '/supplier');
      expect(throttled.statusCode).toBe(429);
      expect(throttled.headers['retry-after']).toBeDefined();
      expect(throttled.json().error).toBe('BAD_REQUEST');
      // A live credential is not a guess: it still works.
      expect((await octo(limited.app, key, 'GET', '/supplier')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
