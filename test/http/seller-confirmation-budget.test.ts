/**
 * A seller's daily budget of confirmations to others (docs/booking.md, "Not a relay"):
 * anyone may sign up as a seller, so the bookings of its account, its staff and its
 * publishable keys send at most SELLER_CONFIRMATIONS_PER_DAY confirmations a day
 * to addresses not its accounts'. Past it a booking stands (201) and its email is not
 * queued; the seller's own addresses, its customers' own bookings, an admin and every other
 * seller are untouched. The operator sees it: a counter and a log line naming the seller (an
 * id, no address). And the confirmation's subject never carries the seller's text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher, type Dispatcher } from '../../src/mail/dispatcher.js';
import { confirmationsWithheld } from '../../src/metrics/index.js';
import { as, createAdmin, signUp, type Account, type TestApp } from '../helpers/app.js';
import { createTestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { delegate } from '../helpers/guides.js';
import { parseMail, startSmtpServer, freePort, type TestSmtpServer } from '../mail/smtp.js';

const BUDGET = 3;
const PHISHING =
  'ACTION REQUIRED - your PayPal account is limited, verify at https://paypa1-verify.example now';

let t: TestApp;
let smtp: TestSmtpServer;
let mail: Dispatcher;
let stranger = 0;

beforeAll(async () => {
  t = await createTestApp({ SELLER_CONFIRMATIONS_PER_DAY: String(BUDGET) });
  smtp = await startSmtpServer(await freePort());
  mail = createDispatcher({
    db: t.database.db,
    smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
    from: 'Bookings <bookings@example.test>',
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    retryBaseMs: 10,
  });
});
afterAll(async () => {
  await mail.stop();
  await smtp.close();
  await t.close();
});

const strangerAddress = () => `victim${++stranger}@stranger.example`;

/** Books one seat for `email` as `account`; the order must be made whatever the mail does. */
async function bookFor(shop: Shop, account: Account, email: string) {
  const response = await book(t.app, account, {
    customerName: 'Dear customer',
    customerEmail: email,
    items: [item(shop.experienceId)],
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string; shortCode: string }>();
}

/** Whether the order's confirmation was queued. */
const confirmed = async (orderId: string): Promise<boolean> =>
  (await t.database.db
    .selectFrom('outbox')
    .select('id')
    .where('order_id', '=', orderId)
    .where('kind', '=', 'order_confirmation')
    .executeTakeFirst()) !== undefined;

/** A seller whose budget its own account has spent on strangers. */
async function spentShop(): Promise<Shop> {
  const shop = await openShop(t.app);
  for (let i = 0; i < BUDGET; i++) {
    const order = await bookFor(shop, shop.seller, strangerAddress());
    expect(await confirmed(order.id)).toBe(true);
  }
  return shop;
}

const withheldSoFar = async (): Promise<number> =>
  (await confirmationsWithheld.get()).values.find((v) => v.labels.cap === 'seller_daily')?.value ??
  0;

describe('the subject of order emails', () => {
  it('names the booking by its code, never the seller’s text; the body names the item', async () => {
    const shop = await openShop(t.app, { name: PHISHING });
    const order = await bookFor(shop, shop.seller, 'ann@customer.example');
    while ((await mail.runOnce()) > 0);
    const cancel = await as(t.app, shop.seller, {
      method: 'POST',
      url: `/api/orders/${order.id}/cancel`,
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    while ((await mail.runOnce()) > 0);

    const sent = smtp.received
      .filter((m) => m.rcptTo.includes('ann@customer.example'))
      .map((m) => parseMail(m.raw));
    expect(sent.map((m) => m.headers.get('subject'))).toEqual([
      `Booking confirmed: ${order.shortCode}`,
      `Booking canceled: ${order.shortCode}`,
    ]);
    expect(order.shortCode).toMatch(/^[A-Z2-9]{8}$/);
    for (const m of sent) expect(m.headers.get('subject')).not.toContain('PayPal');
    expect(sent[0]!.parts.get('text/plain')).toContain(`1. ${PHISHING}`);
  });
});

describe('a seller’s daily budget of confirmations to others', () => {
  it('past it, the seller still books (201) and no further email is queued; the operator sees it', async () => {
    const shop = await spentShop();
    const before = await withheldSoFar();
    const logged = t.logs.length;
    for (let i = 0; i < 3; i++) {
      const order = await bookFor(shop, shop.seller, strangerAddress());
      expect(await confirmed(order.id)).toBe(false);
    }
    expect(await withheldSoFar()).toBe(before + 3);
    // One line for the three: at most one per seller an interval (seller-budget-log.test.ts).
    const lines = t.logs.slice(logged).filter((l) => l.includes('daily budget'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 40,
      sellerId: shop.seller.id,
      withheld: 1,
    });
    for (const line of lines) expect(line).not.toMatch(/@/);
  });

  it('leaves the seller’s own addresses and its staff’s mailed', async () => {
    const shop = await spentShop();
    const staff = await delegate(t.app, shop.seller, ['ROLE_RESERVATION'], 'Desk');
    expect(await confirmed((await bookFor(shop, shop.seller, shop.seller.email)).id)).toBe(true);
    const upper = shop.seller.email.toUpperCase();
    expect(await confirmed((await bookFor(shop, shop.seller, upper)).id)).toBe(true);
    expect(await confirmed((await bookFor(shop, staff, staff.email)).id)).toBe(true);
    expect(await confirmed((await bookFor(shop, shop.seller, staff.email)).id)).toBe(true);
    // ... and counts none of those: a stranger is still over the budget.
    expect(await confirmed((await bookFor(shop, staff, strangerAddress())).id)).toBe(false);
  });

  it('is the seller’s, whoever of its own books: staff spend it, and the seller is then held', async () => {
    const shop = await openShop(t.app);
    const staff = await delegate(t.app, shop.seller, ['ROLE_SELLER_ADMIN'], 'Admin');
    for (let i = 0; i < BUDGET; i++) {
      expect(await confirmed((await bookFor(shop, staff, strangerAddress())).id)).toBe(true);
    }
    expect(await confirmed((await bookFor(shop, shop.seller, strangerAddress())).id)).toBe(false);
  });

  it('holds the seller’s publishable key too, as another channel of the same seller', async () => {
    const shop = await spentShop();
    const made = await as(t.app, shop.seller, {
      method: 'POST',
      url: `/api/sellers/${shop.seller.id}/publishable-keys`,
      payload: {},
    });
    expect(made.statusCode, made.body).toBe(201);
    const checkout = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      remoteAddress: '203.0.113.9',
      headers: { 'x-publishable-key': made.json().key },
      payload: {
        customerName: 'Gwen Guest',
        customerEmail: strangerAddress(),
        phone: '+33 6 12 34 56 78',
        source: 'checkout',
        items: [item(shop.experienceId)],
      },
    });
    expect(checkout.statusCode, checkout.body).toBe(201);
    expect(await confirmed(checkout.json().id)).toBe(false);
  });

  it('leaves every other seller, the seller’s customers’ own bookings and an admin untouched', async () => {
    const shop = await spentShop();
    const other = await openShop(t.app);
    expect(await confirmed((await bookFor(other, other.seller, strangerAddress())).id)).toBe(true);

    const customer = await signUp(t.app, { name: 'Walk-in' });
    expect(await confirmed((await bookFor(shop, customer, customer.email)).id)).toBe(true);

    const admin = await createAdmin(t);
    expect(await confirmed((await bookFor(shop, admin, strangerAddress())).id)).toBe(true);
  });

  it('holds a change of address too: a queued confirmation is not taken to a stranger', async () => {
    const shop = await openShop(t.app);
    // Queued to the seller's own address (not counted), and not sent yet (no dispatcher runs).
    const order = await bookFor(shop, shop.seller, shop.seller.email);
    for (let i = 0; i < BUDGET; i++) await bookFor(shop, shop.seller, strangerAddress());
    const retargeted = await as(t.app, shop.seller, {
      method: 'PATCH',
      url: `/api/orders/${order.id}`,
      payload: { customerEmail: strangerAddress() },
    });
    expect(retargeted.statusCode, retargeted.body).toBe(200);
    const queued = await t.database.db
      .selectFrom('outbox')
      .select('recipient')
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    // Left where it was: the dispatcher skips it, the order's address being another now.
    expect(queued.recipient).toBe(shop.seller.email);
  });

  it('holds the change that confirms a pending order for a stranger', async () => {
    const shop = await openShop(t.app);
    const held = await book(t.app, shop.seller, {
      customerName: 'Dear customer',
      customerEmail: shop.seller.email,
      items: [{ ...item(shop.experienceId), status: 100 }],
    });
    expect(held.statusCode, held.body).toBe(201);
    for (let i = 0; i < BUDGET; i++) await bookFor(shop, shop.seller, strangerAddress());
    const retargeted = await as(t.app, shop.seller, {
      method: 'PATCH',
      url: `/api/orders/${held.json().id}`,
      payload: {
        customerEmail: strangerAddress(),
        items: [{ id: held.json().items[0].id, status: 200 }],
      },
    });
    expect(retargeted.statusCode, retargeted.body).toBe(200);
    expect(await confirmed(held.json().id)).toBe(false);
  });
});
