/**
 * Races of webhook creation that only real row locks show (PostgreSQL; docs/octo.md,
 * docs/security.md): a plain connection of the test's own holds a lock, so that requests
 * wait at a known point while another runs. Concurrent creations of one reseller count its
 * hooks one after the other, so the cap of 20 holds; a reseller's creation that comes while
 * its credential's revocation is under way waits for it and is refused, instead of
 * committing a hook the revocation's delete did not see (which would go on receiving the
 * revoked reseller's bookings); the same for a seller-admin delegate's hook while its
 * delegation is being removed. The same without a race, through a slow name lookup:
 * test/http/octo-webhooks.test.ts and test/http/delegate-removal.test.ts.
 */
import type pg from 'pg';
import { openLocker, waitingOnLock } from '../helpers/lock-waits.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { delegate } from '../helpers/guides.js';
import { createAffiliate, octo } from '../helpers/octo.js';

let t: TestApp;
let seller: Account;
let locker: pg.Client;

beforeAll(async () => {
  t = await createTestApp({ BOOKING_ENV: 'sandbox' }); // loopback hook URLs
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  locker = await openLocker(t.database);
});
afterAll(async () => {
  await locker.end();
  await t.close();
});

const waiting = (count: number) => waitingOnLock(locker, count);

const createHook = (key: string, path: string) =>
  octo(t.app, key, 'POST', '/webhooks', {
    url: `http://127.0.0.1:9/${path}`,
    event: 'booking_update',
  });

const hooksOf = async (resellerId: string) =>
  (
    await locker.query<{ n: number }>(
      'select count(*)::int as n from hooks where reseller_id = $1',
      [resellerId],
    )
  ).rows[0]!.n;

describe('resellers’ webhooks made concurrently', () => {
  it('never go past 20 per reseller, however many are made at once', async () => {
    const reseller = await createAffiliate(t.app, seller, { name: 'Busy' });
    for (let i = 0; i < 19; i++)
      expect((await createHook(reseller.apiKey, `cap-${i}`)).statusCode).toBe(200);
    // Every creation has counted 19 by the time any of them may insert, unless they count in turn.
    await locker.query('begin');
    await locker.query('lock table hooks in share row exclusive mode');
    const creating = [0, 1, 2].map((i) => createHook(reseller.apiKey, `last-${i}`));
    await waiting(3);
    await locker.query('rollback');
    const answers = await Promise.all(creating);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400]);
    expect(await hooksOf(reseller.id)).toBe(20);
  });

  it('are not made by a credential being revoked', async () => {
    const reseller = await createAffiliate(t.app, seller, { name: 'Leaving' });
    const first = await createHook(reseller.apiKey, 'first');
    expect(first.statusCode, first.body).toBe(200);
    // The revocation waits in its delete of the credential's hooks, on the first one.
    await locker.query('begin');
    await locker.query('select id from hooks where id = $1 for update', [first.json().id]);
    const revoking = as(t.app, seller, {
      method: 'DELETE',
      url: `/api/users/${seller.id}/affiliates/${reseller.id}`,
    });
    await waiting(1);
    const creating = createHook(reseller.apiKey, 'during');
    // It either waits for the revocation (fixed) or commits at once (the race).
    await Promise.race([creating, waiting(2)]);
    await locker.query('rollback');
    expect((await revoking).statusCode).toBe(204);
    const created = await creating;
    expect(created.statusCode, created.body).toBe(400);
    expect(created.json().error).toBe('FORBIDDEN');
    expect(await hooksOf(reseller.id)).toBe(0);
  });
});

describe('a delegate’s hook made while its delegation is removed', () => {
  it('waits for the removal and is refused', async () => {
    const shop = await signUp(t.app, { roles: ['ROLE_SELLER'] });
    const admin = await delegate(t.app, shop, ['ROLE_SELLER_ADMIN'], 'Leaving Admin');
    const hook = (path: string) =>
      as(t.app, admin, {
        method: 'POST',
        url: `/api/users/${shop.id}/hooks`,
        payload: { eventName: '*', url: `http://127.0.0.1:9/${path}` },
      });
    const first = await hook('first');
    expect(first.statusCode, first.body).toBe(201);
    // The removal waits in disabling what the delegate made, on its first hook.
    await locker.query('begin');
    await locker.query('select id from hooks where id = $1 for update', [first.json().id]);
    const delegation = (
      await as(t.app, shop, { method: 'GET', url: `/api/users/${shop.id}/delegates` })
    ).json().data[0];
    const removing = as(t.app, shop, {
      method: 'DELETE',
      url: `/api/users/${shop.id}/delegates/${delegation.id}`,
    });
    await waiting(1);
    const creating = hook('during');
    await Promise.race([creating, waiting(2)]);
    await locker.query('rollback');
    expect((await removing).statusCode).toBe(204);
    const created = await creating;
    expect(created.statusCode, created.body).toBe(403);
    const { rows } = await locker.query<{ status: string }>(
      'select status from hooks where owner_id = $1',
      [shop.id],
    );
    expect(rows).toEqual([{ status: 'disabled' }]);
  });
});
