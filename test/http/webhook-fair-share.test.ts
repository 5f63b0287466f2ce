/**
 * The dispatcher's slots shared fairly between tenants (review-hooks finding 3): eight
 * budgets whose receivers accept and never answer, with a backlog each (eight sellers, or
 * four sellers and their resellers), used to hold all 64 slots, and another tenant's
 * delivery waited for their whole backlog to time out. Now budgets that hold a slot share
 * 48, the last 16 start only a budget's first delivery, and a freed slot goes to the
 * budget holding fewest (the claim's turns), not to the oldest backlog.
 *
 * Nothing here is timed: the stalled requests would not time out for 30 s, and the other
 * tenant's delivery arrives while every one of them is still open, before any attempt of
 * theirs has ended.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { deliveriesRepository } from '../../src/modules/hooks/deliveries.repository.js';
import { as, createTestApp, testConfig, type Account, type TestApp } from '../helpers/app.js';
import { book, item, openShop } from '../helpers/booking.js';
import { octo, openOctoShop, today } from '../helpers/octo.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/** A server that accepts requests and never answers; how many it holds open now. */
interface Stall {
  port: number;
  open: () => number;
  close: () => Promise<void>;
}

async function startStall(): Promise<Stall> {
  let open = 0;
  const server = http.createServer((_req, res) => {
    open += 1;
    res.on('close', () => (open -= 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    open: () => open,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const DISPATCH = {
  BOOKING_ENV: 'sandbox',
  WEBHOOK_DISPATCH: 'true',
  WEBHOOK_POLL_MS: '25',
  // Far longer than the test: a stalled request only ends when its server closes it.
  WEBHOOK_TIMEOUT_MS: '30000',
  WEBHOOK_RETRY_SCHEDULE_MS: '600000',
};

let t: TestApp;
let receiver: Receiver;
const stalls: Stall[] = [];
beforeAll(async () => {
  // The backlog is made with no dispatcher; each scenario starts one over it.
  t = await createTestApp({ BOOKING_ENV: 'sandbox' });
  receiver = await startReceiver();
});
afterAll(async () => {
  for (const stall of stalls) await stall.close();
  await t.close();
  await receiver.close();
});

const openStalls = () => stalls.reduce((n, s) => n + s.open(), 0);

async function hook(account: Account, ownerId: string, eventName: string, url: string) {
  const made = await as(t.app, account, {
    method: 'POST',
    url: `/api/users/${ownerId}/hooks`,
    payload: { eventName, url },
  });
  expect(made.statusCode, made.body).toBe(201);
  return made.json().id as string;
}

/** Ten `*` hooks of the seller on two never-answering hosts (an owner's cap is 8). */
async function stallingHooks(seller: Account): Promise<void> {
  const pair = [await startStall(), await startStall()];
  stalls.push(...pair);
  for (let i = 0; i < 10; i++) {
    await hook(seller, seller.id, '*', `http://127.0.0.1:${pair[i % 2]!.port}/h${i}`);
  }
}

/** Attempts recorded so far but those to `except` (an attempt is recorded when it ends). */
async function attemptsEnded(except = ''): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from webhook_attempts a
    join webhook_deliveries d on d.id = a.delivery_id where d.hook_id <> ${except}`.execute(
    t.database.db,
  );
  return Number(rows[0]!.n);
}

/** Every hook so far disabled: what a scenario left waiting stays out of the next. */
async function disableAll(): Promise<void> {
  await sql`update hooks set status = 'disabled'`.execute(t.database.db);
}

/**
 * Starts a dispatcher over the backlog, waits for it to fill what it will fill (48 slots),
 * then books for a fresh tenant: its delivery arrives while every stalled request is still
 * held, with no attempt ended.
 */
async function anotherTenantIsDeliveredAtOnce(): Promise<void> {
  const logStream = new PassThrough().resume(); // its log is not what is checked
  const dispatcher: FastifyInstance = await buildApp(testConfig(DISPATCH), {
    database: t.database,
    logStream,
  });
  const ended = await attemptsEnded();
  await dispatcher.ready();
  try {
    await vi.waitFor(() => expect(openStalls()).toBeGreaterThanOrEqual(48), { timeout: 15_000 });
    // More polls, for any slot it would take beyond its share.
    await new Promise((resolve) => setTimeout(resolve, 500));
    // 48 of 64: budgets holding a slot share three quarters; 16 wait for other tenants.
    expect(openStalls()).toBe(48);

    const victim = await openShop(t.app);
    const path = `/victim-${victim.seller.id}`;
    const victimHook = await hook(
      victim.seller,
      victim.seller.id,
      'order.create',
      receiver.url(path),
    );
    const booked = await book(t.app, victim.seller, {
      customerName: 'Vera',
      items: [item(victim.experienceId)],
    });
    expect(booked.statusCode, booked.body).toBe(201);
    await receiver.waitFor((all) => all.some((r) => r.path === path), 15_000);
    // It started while every stalled request was held: none has ended, none was freed.
    expect(openStalls()).toBe(48);
    expect(await attemptsEnded(victimHook)).toBe(ended);
  } finally {
    // Their attempts fail now (the connections close); retries are ten minutes away.
    for (const stall of stalls) await stall.close();
    stalls.length = 0;
    await dispatcher.close();
    await disableAll();
  }
}

describe('eight budgets whose receivers never answer', () => {
  it('eight sellers hold 48 slots, and another tenant is delivered while they do', async () => {
    for (let s = 0; s < 8; s++) {
      const shop = await openShop(t.app);
      await stallingHooks(shop.seller);
      for (const day of ['2030-06-01', '2030-06-02']) {
        const booked = await book(t.app, shop.seller, {
          customerName: 'X',
          items: [item(shop.experienceId, day)],
        });
        expect(booked.statusCode, booked.body).toBe(201);
      }
    }
    await anotherTenantIsDeliveredAtOnce();
  });

  it('four sellers and their resellers hold 48 slots, and another tenant is delivered', async () => {
    for (let s = 0; s < 4; s++) {
      const shop = await openOctoShop(t.app);
      await stallingHooks(shop.seller);
      // The resellers' budget: ten of the reseller's hooks on two more stalling hosts.
      const pair = [await startStall(), await startStall()];
      stalls.push(...pair);
      for (let i = 0; i < 10; i++) {
        const made = await octo(t.app, shop.reseller.apiKey, 'POST', '/webhooks', {
          url: `http://127.0.0.1:${pair[i % 2]!.port}/r${i}`,
          event: 'availability_update',
        });
        expect(made.statusCode, made.body).toBe(200);
      }
      for (const day of [3, 4]) {
        const [departure] = (
          await octo(t.app, shop.seller.apiKey, 'POST', '/availability', {
            productId: shop.tour,
            optionId: 'DEFAULT',
            localDate: today(day),
          })
        ).json();
        const booked = await octo(t.app, shop.seller.apiKey, 'POST', '/bookings', {
          productId: shop.tour,
          optionId: 'DEFAULT',
          availabilityId: departure.id,
          unitItems: [{ unitId: shop.adult }],
        });
        expect(booked.statusCode, booked.body).toBe(200);
      }
    }
    await anotherTenantIsDeliveredAtOnce();
  });
});

describe("the claim's turns", () => {
  it('reads budgets in turns counted from the slots they hold, not oldest first', async () => {
    const repo = deliveriesRepository(t.database.db);
    await disableAll();
    const older = await openShop(t.app);
    const newer = await openShop(t.app);
    await hook(older.seller, older.seller.id, 'order.create', receiver.url('/older'));
    await hook(newer.seller, newer.seller.id, 'order.create', receiver.url('/newer'));
    const orders: Record<string, string> = {};
    for (const [shop, n] of [
      [older, 5],
      [newer, 2],
    ] as const) {
      for (let i = 0; i < n; i++) {
        const booked = await book(t.app, shop.seller, {
          customerName: `${shop === older ? 'Old' : 'New'} ${i}`,
          items: [item(shop.experienceId, `2030-07-0${i + 1}`)],
        });
        expect(booked.statusCode, booked.body).toBe(201);
        orders[booked.json().id] = `${shop === older ? 'older' : 'newer'} ${i}`;
      }
    }
    while ((await repo.fanOut(200)) > 0);
    const names = (claimed: { event: { object: unknown } }[]) =>
      claimed.map((d) => orders[(d.event.object as { id: string }).id]);

    // The older seller holds three slots: the newer one's delivery comes first, however old
    // the older one's backlog.
    const first = await repo.claimDue(1, 60_000, { held: { [`owner ${older.seller.id}`]: 3 } });
    expect(names(first)).toEqual(['newer 0']);
    // Holding none each: one of each in turn, oldest first within a turn.
    const next = await repo.claimDue(3, 60_000, {});
    expect(names(next)).toEqual(['older 0', 'newer 1', 'older 1']);
  });
});
