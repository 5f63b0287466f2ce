/**
 * The operator's log of a seller over its daily budget of confirmations to others
 * (docs/booking.md, "Not a relay"; src/mail/withheld-log.ts): a spam run past the budget is
 * withheld about 1,000 times a minute, and each used to log a warning. Now the first is
 * logged, naming the seller (an id, never an address), and the next ones only once the
 * interval is over (10 minutes: test/unit/withheld-log.test.ts); the metric counts them all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmationsWithheld } from '../../src/metrics/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';

const BUDGET = 1;
const RUN = 25;

let t: TestApp;
let stranger = 0;

beforeAll(async () => {
  t = await createTestApp({ SELLER_CONFIRMATIONS_PER_DAY: String(BUDGET) });
});
afterAll(async () => {
  await t.close();
});

const strangerAddress = () => `target${++stranger}@stranger.example`;

async function bookForStranger(shop: Shop) {
  const response = await book(t.app, shop.seller, {
    customerName: 'Dear customer',
    customerEmail: strangerAddress(),
    items: [item(shop.experienceId)],
  });
  expect(response.statusCode, response.body).toBe(201);
}

const withheldSoFar = async (): Promise<number> =>
  (await confirmationsWithheld.get()).values.find((v) => v.labels.cap === 'seller_daily')?.value ??
  0;

const budgetLines = (from: number) =>
  t.logs
    .slice(from)
    .filter((line) => line.includes('daily budget'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the log of a seller over its budget', () => {
  it('is one line for a run of withheld confirmations, each counted in the metric', async () => {
    // Room on one departure for the whole run.
    const shop = await openShop(t.app, { group: { outingMax: 100 } });
    const other = await openShop(t.app);
    for (let i = 0; i < BUDGET; i++) {
      await bookForStranger(shop);
      await bookForStranger(other);
    }
    const logged = t.logs.length;
    const before = await withheldSoFar();
    for (let i = 0; i < RUN; i++) await bookForStranger(shop);
    // Another seller over its budget is logged on its own.
    await bookForStranger(other);
    await bookForStranger(other);

    expect(await withheldSoFar()).toBe(before + RUN + 2);
    const lines = budgetLines(logged);
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, sellerId: shop.seller.id, withheld: 1 }),
      expect.objectContaining({ level: 40, sellerId: other.seller.id, withheld: 1 }),
    ]);
    for (const line of t.logs.slice(logged)) expect(line).not.toMatch(/@/);
  });
});
