/**
 * One change of an order, one confirmation against the seller's daily budget
 * (docs/booking.md, "Not a relay"): a `PATCH`/`PUT /api/orders/{id}` that both confirms the
 * order's first item and changes its `customerEmail` asks the budget once, for the one
 * confirmation it sends to the new address. It used to ask twice (as a new confirmation, then
 * as a readdressed one): within the budget that still queued one email, but past it the one
 * confirmation was withheld, counted and logged twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmationsWithheld } from '../../src/metrics/index.js';
import { as, createTestApp, type Account, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';

const BUDGET = 2;

let t: TestApp;
let stranger = 0;

beforeAll(async () => {
  t = await createTestApp({ SELLER_CONFIRMATIONS_PER_DAY: String(BUDGET) });
});
afterAll(async () => {
  await t.close();
});

const strangerAddress = () => `someone${++stranger}@stranger.example`;

/** An order of one seat, its item confirmed (200) or pending (100), for `email`. */
async function bookFor(shop: Shop, account: Account, email: string, status = 200) {
  const response = await book(t.app, account, {
    customerName: 'Dear customer',
    customerEmail: email,
    items: [{ ...item(shop.experienceId), status }],
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string; items: { id: string }[] }>();
}

/** The address the order's confirmation was queued to, if one was. */
const queuedTo = async (orderId: string): Promise<string | undefined> =>
  (
    await t.database.db
      .selectFrom('outbox')
      .select('recipient')
      .where('order_id', '=', orderId)
      .where('kind', '=', 'order_confirmation')
      .executeTakeFirst()
  )?.recipient;

const withheldSoFar = async (): Promise<number> =>
  (await confirmationsWithheld.get()).values.find((v) => v.labels.cap === 'seller_daily')?.value ??
  0;

/** Confirms the pending order's item and sends it to `email`, in one request. */
async function confirmFor(
  shop: Shop,
  order: { id: string; items: { id: string }[] },
  email: string,
  method: 'PATCH' | 'PUT',
) {
  const response = await as(t.app, shop.seller, {
    method,
    url: `/api/orders/${order.id}`,
    payload: { customerEmail: email, items: [{ id: order.items[0]!.id, status: 200 }] },
  });
  expect(response.statusCode, response.body).toBe(200);
}

describe('a change that confirms an order and changes its address', () => {
  it.each(['PATCH', 'PUT'] as const)('spends one of the seller’s budget (%s)', async (method) => {
    const shop = await openShop(t.app);
    // Pending, to the seller's own address: nothing queued, nothing counted.
    const order = await bookFor(shop, shop.seller, shop.seller.email, 100);
    expect(await queuedTo(order.id)).toBeUndefined();
    const address = strangerAddress();
    await confirmFor(shop, order, address, method);
    expect(await queuedTo(order.id)).toBe(address);
    // One of two spent: one more stranger is mailed, the next is over the budget.
    expect(await queuedTo((await bookFor(shop, shop.seller, strangerAddress())).id)).toBeDefined();
    const before = await withheldSoFar();
    expect(
      await queuedTo((await bookFor(shop, shop.seller, strangerAddress())).id),
    ).toBeUndefined();
    expect(await withheldSoFar()).toBe(before + 1);
  });

  it('past the budget, is one confirmation withheld, counted once', async () => {
    const shop = await openShop(t.app);
    const order = await bookFor(shop, shop.seller, shop.seller.email, 100);
    for (let i = 0; i < BUDGET; i++) await bookFor(shop, shop.seller, strangerAddress());
    const before = await withheldSoFar();
    await confirmFor(shop, order, strangerAddress(), 'PATCH');
    expect(await queuedTo(order.id)).toBeUndefined();
    expect(await withheldSoFar()).toBe(before + 1);
  });

  it('still takes a queued confirmation to a new address within the budget', async () => {
    const shop = await openShop(t.app);
    // Queued to the seller's own address, not counted; readdressed, it is the one of the day.
    const order = await bookFor(shop, shop.seller, shop.seller.email);
    const address = strangerAddress();
    const response = await as(t.app, shop.seller, {
      method: 'PATCH',
      url: `/api/orders/${order.id}`,
      payload: { customerEmail: address },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await queuedTo(order.id)).toBe(address);
  });
});
