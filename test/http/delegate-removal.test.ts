/**
 * What a seller-admin delegate made for its seller ends with the delegation (review F3): a
 * delegate makes a webhook, a reseller credential and a publishable key; once the seller
 * removes it (or takes ROLE_SELLER_ADMIN from it), the hook is disabled and delivers
 * nothing more, the credential is refused on /octo and the key on the API. The views say
 * who made each (`createdBy`); what the seller itself or an admin made keeps working, and
 * so does what the delegate made for another seller. A hook whose creation was waiting on
 * its URL's name lookup when the delegation ended is refused, not left enabled.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  as,
  createAdmin,
  createTestApp,
  expectProblem,
  type Account,
  type TestApp,
} from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { delegate, makeDelegate } from '../helpers/guides.js';
import { expectOctoError, octo } from '../helpers/octo.js';
import { holdLookup } from '../helpers/held-lookups.js';
import { startReceiver, type Receiver, type Received } from '../helpers/webhook-receiver.js';

// A URL under /held waits in its creation's name check until the test lets it go on.
vi.mock('../../src/modules/hooks/destination.js', async (importOriginal) =>
  (await import('../helpers/held-lookups.js')).withHeldLookups(await importOriginal()),
);

let t: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  t = await createTestApp({
    BOOKING_ENV: 'sandbox', // loopback hook URLs
    WEBHOOK_DISPATCH: 'true',
    WEBHOOK_POLL_MS: '25',
  });
  receiver = await startReceiver();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

let paths = 0;
/** The `order.create` deliveries received at `path`. */
const ordersAt = (path: string) => (all: Received[]) =>
  all.filter((r) => r.path === path && r.json.eventName === 'order.create');

interface Made {
  /** Where the hook delivers (on the receiver). */
  path: string;
  hook: { id: string; createdBy: unknown };
  affiliate: { id: string; apiKey: string; createdBy: unknown };
  key: { id: string; key: string; createdBy: unknown };
}

async function affiliateFor(maker: Account, seller: Account): Promise<Made['affiliate']> {
  const response = await as(t.app, maker, {
    method: 'POST',
    url: `/api/users/${seller.id}/affiliates`,
    payload: { name: `Partner ${++paths}` },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** What `maker` makes for `seller`: a `*` hook, a reseller credential, a publishable key. */
async function makeAll(maker: Account, seller: Account): Promise<Made> {
  const path = `/made-${++paths}`;
  const hook = await as(t.app, maker, {
    method: 'POST',
    url: `/api/users/${seller.id}/hooks`,
    payload: { eventName: '*', url: receiver.url(path) },
  });
  expect(hook.statusCode, hook.body).toBe(201);
  const key = await as(t.app, maker, {
    method: 'POST',
    url: `/api/sellers/${seller.id}/publishable-keys`,
    payload: { label: `page ${paths}` },
  });
  expect(key.statusCode, key.body).toBe(201);
  return { path, hook: hook.json(), affiliate: await affiliateFor(maker, seller), key: key.json() };
}

const readHook = async (seller: Account, id: string) =>
  (await as(t.app, seller, { method: 'GET', url: `/api/users/${seller.id}/hooks/${id}` })).json();

const deliveriesOf = async (seller: Account, id: string): Promise<unknown[]> =>
  (
    await as(t.app, seller, {
      method: 'GET',
      url: `/api/users/${seller.id}/hooks/${id}/deliveries`,
    })
  ).json().data;

const withKey = (key: string) =>
  t.app.inject({
    method: 'GET',
    url: '/api/experiences',
    remoteAddress: '203.0.113.9',
    headers: { 'x-publishable-key': key },
  });

/** Works: the hook enabled, the credential and the key accepted. */
async function expectWorking(seller: Account, made: Made) {
  expect((await readHook(seller, made.hook.id)).status).toBe('enabled');
  expect((await octo(t.app, made.affiliate.apiKey, 'GET', '/supplier')).statusCode).toBe(200);
  expect((await withKey(made.key.key)).statusCode).toBe(200);
}

/** Ended: the hook disabled, the credential refused on /octo, the key refused on the API. */
async function expectEnded(seller: Account, made: Made) {
  const hook = await readHook(seller, made.hook.id);
  expect(hook).toMatchObject({ status: 'disabled', disabledAt: expect.any(String) });
  expectOctoError(await octo(t.app, made.affiliate.apiKey, 'GET', '/supplier'), 'FORBIDDEN');
  expectProblem(await withKey(made.key.key), 401, 'invalid_credentials');
  const affiliates = await as(t.app, seller, {
    method: 'GET',
    url: `/api/users/${seller.id}/affiliates?id=${made.affiliate.id}`,
  });
  expect(affiliates.json().data).toEqual([
    expect.objectContaining({ id: made.affiliate.id, revokedAt: expect.any(String) }),
  ]);
  const keys = await as(t.app, seller, {
    method: 'GET',
    url: `/api/sellers/${seller.id}/publishable-keys?id=${made.key.id}`,
  });
  expect(keys.json().data).toEqual([
    expect.objectContaining({ id: made.key.id, revokedAt: expect.any(String) }),
  ]);
}

/** The seller removes `user`'s delegation: 204. */
async function removeDelegate(seller: Account, user: Account): Promise<void> {
  const list = await as(t.app, seller, {
    method: 'GET',
    url: `/api/users/${seller.id}/delegates`,
  });
  const delegation = list
    .json()
    .data.find((d: { user: { id: string } | null }) => d.user?.id === user.id);
  const removed = await as(t.app, seller, {
    method: 'DELETE',
    url: `/api/users/${seller.id}/delegates/${delegation.id}`,
  });
  expect(removed.statusCode).toBe(204);
}

describe('a removed seller-admin delegate', () => {
  let shop: Shop;
  let admin: Account;
  let byDelegate: Made;
  let bySeller: Made;

  beforeAll(async () => {
    shop = await openShop(t.app);
    admin = await delegate(t.app, shop.seller, ['ROLE_SELLER_ADMIN'], 'Fired Admin');
    byDelegate = await makeAll(admin, shop.seller);
    bySeller = await makeAll(shop.seller, shop.seller);
  });

  it('shows who made each hook, credential and key', async () => {
    expect(byDelegate.hook.createdBy).toEqual({ id: admin.id });
    expect(byDelegate.affiliate.createdBy).toEqual({ id: admin.id });
    expect(byDelegate.key.createdBy).toEqual({ id: admin.id });
    expect(bySeller.hook.createdBy).toEqual({ id: shop.seller.id });
    expect(bySeller.affiliate.createdBy).toEqual({ id: shop.seller.id });
    expect(bySeller.key.createdBy).toEqual({ id: shop.seller.id });
    expect(await readHook(shop.seller, byDelegate.hook.id)).toMatchObject({
      createdBy: { id: admin.id },
    });
    await expectWorking(shop.seller, byDelegate);
  });

  it('leaves its hook disabled, its credential and key revoked; the seller’s keep working', async () => {
    const order = () =>
      book(t.app, shop.seller, {
        customerName: 'Ann Walker',
        customerEmail: 'ann@example.com',
        items: [item(shop.experienceId)],
      });
    expect((await order()).statusCode).toBe(201);
    await receiver.waitFor((all) => ordersAt(byDelegate.path)(all).length === 1);
    await receiver.waitFor((all) => ordersAt(bySeller.path)(all).length === 1);
    const delivered = (await deliveriesOf(shop.seller, byDelegate.hook.id)).length;

    await removeDelegate(shop.seller, admin);

    await expectEnded(shop.seller, byDelegate);
    await expectWorking(shop.seller, bySeller);
    expect((await readHook(shop.seller, byDelegate.hook.id)).createdBy).toEqual({ id: admin.id });

    // The next order reaches the seller's hook only: the fan-out made no delivery for the other.
    expect((await order()).statusCode).toBe(201);
    await receiver.waitFor((all) => ordersAt(bySeller.path)(all).length === 2);
    expect(await deliveriesOf(shop.seller, byDelegate.hook.id)).toHaveLength(delivered);
    expect(ordersAt(byDelegate.path)(receiver.received)).toHaveLength(1);
  });
});

describe('a delegate whose roles change', () => {
  it('loses what it made with ROLE_SELLER_ADMIN once it no longer holds it', async () => {
    const shop = await openShop(t.app);
    const staff = await delegate(t.app, shop.seller, ['ROLE_SELLER_ADMIN'], 'Demoted Admin');
    const made = await makeAll(staff, shop.seller);
    await expectWorking(shop.seller, made);

    // Another role added, ROLE_SELLER_ADMIN kept: nothing ends.
    const roles = (to: string[]) =>
      as(t.app, shop.seller, {
        method: 'POST',
        url: `/api/users/${shop.seller.id}/delegates`,
        payload: { user: { id: staff.id }, roles: to },
      });
    expect((await roles(['ROLE_SELLER_ADMIN', 'ROLE_CHECKIN'])).statusCode).toBe(200);
    await expectWorking(shop.seller, made);

    expect((await roles(['ROLE_RESERVATION'])).statusCode).toBe(200);
    await expectEnded(shop.seller, made);
  });
});

describe('what the removal leaves alone', () => {
  it('keeps what an admin made, and what the delegate made for another seller', async () => {
    const first = await openShop(t.app);
    const second = await openShop(t.app);
    const platformAdmin = await createAdmin(t);
    const staff = await delegate(t.app, first.seller, ['ROLE_SELLER_ADMIN'], 'Two Hats');
    await makeDelegate(t.app, second.seller, staff, ['ROLE_SELLER_ADMIN']);
    const atFirst = await makeAll(staff, first.seller);
    const atSecond = await makeAll(staff, second.seller);
    const byAdmin = await makeAll(platformAdmin, first.seller);
    expect(byAdmin.hook.createdBy).toEqual({ id: platformAdmin.id });

    await removeDelegate(first.seller, staff);

    await expectEnded(first.seller, atFirst);
    await expectWorking(second.seller, atSecond);
    await expectWorking(first.seller, byAdmin);
  });
});

describe('a hook being made when the delegation ends', () => {
  it('is refused once the name lookup is done, and nothing of it is left', async () => {
    const shop = await openShop(t.app);
    const leaving = await delegate(t.app, shop.seller, ['ROLE_SELLER_ADMIN'], 'Leaving Admin');
    const lookup = holdLookup();
    const creating = as(t.app, leaving, {
      method: 'POST',
      url: `/api/users/${shop.seller.id}/hooks`,
      payload: { eventName: '*', url: receiver.url('/held/leaving') },
    });
    await lookup.reached;
    await removeDelegate(shop.seller, leaving);
    lookup.release();
    expectProblem(await creating, 403, 'forbidden');
    const hooks = await as(t.app, shop.seller, {
      method: 'GET',
      url: `/api/users/${shop.seller.id}/hooks`,
    });
    expect(hooks.json().data).toEqual([]);
  });
});
