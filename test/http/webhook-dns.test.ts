/**
 * A tenant whose name server goes silent costs other tenants nothing (review-octo finding
 * 1). Hook hosts are resolved against a name server on a loopback port (test/helpers/
 * fake-dns.ts): `node:dns/promises`' resolvers are pointed at it, and `dns.lookup` asks it
 * the way getaddrinfo would, waiting 20 s for an answer that never comes. The attacker's
 * names answer while its hooks are made, then never; the victim's deliveries and new hooks
 * must go through meanwhile, with no attempt of the victim's failed by the wait.
 */
import type * as Dns from 'node:dns';
import type * as DnsPromises from 'node:dns/promises';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';

const fake = vi.hoisted(() => ({ server: '' }));

vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof DnsPromises>();
  class Resolver extends real.Resolver {
    constructor(options?: ConstructorParameters<typeof real.Resolver>[0]) {
      super(options);
      if (fake.server) this.setServers([fake.server]);
    }
  }
  return { ...real, default: { ...real, Resolver }, Resolver };
});

vi.mock('node:dns', async (importOriginal) => {
  const real = await importOriginal<typeof Dns>();
  type Callback = (
    error: Error | null,
    address: string | Dns.LookupAddress[],
    family?: number,
  ) => void;
  // getaddrinfo against the test's name server: no cancelling, a long wait on silence.
  const lookup = (hostname: string, options: { all?: boolean }, callback: Callback) => {
    if (!fake.server || !hostname.endsWith('.test'))
      return (real.lookup as (...args: unknown[]) => void)(hostname, options, callback);
    const resolver = new real.promises.Resolver({ timeout: 20_000, tries: 1 });
    resolver.setServers([fake.server]);
    resolver.resolve4(hostname).then(
      (found) =>
        options.all
          ? callback(
              null,
              found.map((address) => ({ address, family: 4 })),
            )
          : callback(null, found[0]!, 4),
      (error: Error) => callback(error, []),
    );
  };
  return { ...real, default: { ...real, lookup }, lookup };
});

import { as, createTestApp, type Account, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { startFakeDns, type FakeDns } from '../helpers/fake-dns.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

let t: TestApp;
let dns: FakeDns;
let receiver: Receiver;
let silent = false;
beforeAll(async () => {
  dns = await startFakeDns();
  fake.server = dns.server;
  dns.answer((name, type) => {
    if (name.endsWith('.attacker.test') && silent) return 'silent';
    return type === 'A' ? ['127.0.0.1'] : [];
  });
  t = await createTestApp({
    BOOKING_ENV: 'sandbox',
    WEBHOOK_DISPATCH: 'true',
    WEBHOOK_POLL_MS: '25',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_RETRY_SCHEDULE_MS: '600000',
  });
  receiver = await startReceiver();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
  await dns.close();
});

const port = () => new URL(receiver.url()).port;

function createHook(owner: Account, eventName: string, url: string) {
  return as(t.app, owner, {
    method: 'POST',
    url: `/api/users/${owner.id}/hooks`,
    payload: { eventName, url },
  });
}

async function bookOne(shop: Shop) {
  const booked = await book(t.app, shop.seller, {
    customerName: 'Guest',
    items: [item(shop.experienceId)],
  });
  expect(booked.statusCode, booked.body).toBe(201);
}

it('a silent name server of one tenant delays no other tenant’s deliveries or new hooks', async () => {
  const attacker = await openShop(t.app);
  const victim = await openShop(t.app);
  const made = await createHook(
    victim.seller,
    'order.create',
    `http://hooks.victim.test:${port()}/victim`,
  );
  expect(made.statusCode, made.body).toBe(201);
  // More names than the old process-wide limit of two lookups at a time.
  for (const name of ['a', 'b', 'c']) {
    const hook = await createHook(
      attacker.seller,
      'order.create',
      `http://${name}.attacker.test:${port()}/${name}`,
    );
    expect(hook.statusCode, hook.body).toBe(201);
  }
  silent = true;
  const asked = dns.asked.length;
  await bookOne(attacker);
  // The attacker's deliveries are looking up their silent names.
  await vi.waitFor(() => expect(dns.asked.length).toBeGreaterThanOrEqual(asked + 2), {
    timeout: 3000,
  });
  const started = Date.now();
  await bookOne(victim);
  const [delivered, another] = await Promise.all([
    receiver.waitFor((all) => all.some((r) => r.path === '/victim'), 4000).then(() => Date.now()),
    createHook(victim.seller, 'order.update', `http://hooks.victim.test:${port()}/victim2`),
  ]);
  expect(another.statusCode, another.body).toBe(201);
  expect(delivered - started).toBeLessThan(1500);
  const attempts = () =>
    t.database.db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .innerJoin('hooks as h', 'h.id', 'd.hook_id')
      .select(['a.status_code', 'a.error'])
      .where('h.owner_id', '=', victim.seller.id)
      .execute();
  // Recorded once the receiver's answer is in.
  await vi.waitFor(async () => expect(await attempts()).toHaveLength(1));
  expect(await attempts()).toEqual([{ status_code: 204, error: null }]);
});
