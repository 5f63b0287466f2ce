/**
 * A burst of events heard by many hooks (review-hooks finding 1). A seller with 50 `*` hooks
 * and ten bookings of 20 departures each makes 210 events, 10,500 deliveries: written in one
 * INSERT of seven parameters a row they went past PostgreSQL's 65,535, the fan-out failed on
 * the same oldest events at every poll, and no tenant's webhook was delivered again. Now a
 * fan-out writes at most DELIVERIES_PER_FAN_OUT of them, in one statement of array parameters,
 * and the rest follow at the next polls. The dispatcher starts after the burst, as after a
 * deploy or a pause, so every event waits for it.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { deliveriesRepository } from '../../src/modules/hooks/deliveries.repository.js';
import { DELIVERIES_PER_FAN_OUT } from '../../src/modules/hooks/fan-out.repository.js';
import { as, createTestApp, testConfig, type Account, type TestApp } from '../helpers/app.js';
import { book, item, openShop } from '../helpers/booking.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const HOOKS = 50;
const BOOKINGS = 10;
const ITEMS = 20;

let t: TestApp;
let busy: Receiver;
let quiet: Receiver;
beforeAll(async () => {
  t = await createTestApp({ BOOKING_ENV: 'sandbox' }); // no dispatcher yet
  // The burst's receiver answers slowly, so its host stays at its cap; the other seller's
  // receiver is another host (slots per host are the dispatcher's business, not this test's).
  busy = await startReceiver();
  busy.answer(() => ({ status: 204, delayMs: 500 }));
  quiet = await startReceiver();
});
afterAll(async () => {
  await t.close();
  await busy.close();
  await quiet.close();
});

async function createHook(owner: Account, eventName: string, url: string): Promise<void> {
  const response = await as(t.app, owner, {
    method: 'POST',
    url: `/api/users/${owner.id}/hooks`,
    payload: { eventName, url },
  });
  expect(response.statusCode, response.body).toBe(201);
}

const day = (n: number) =>
  new Date(Date.UTC(2030, 6, 1) + n * 86_400_000).toISOString().slice(0, 10);

const waitingForFanOut = async () =>
  Number(
    (
      await t.database.db
        .selectFrom('domain_events')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('fanned_out', '=', false)
        .executeTakeFirstOrThrow()
    ).n,
  );

const deliveriesTo = async (owner: Account) =>
  Number(
    (
      await t.database.db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('hooks as h', 'h.id', 'd.hook_id')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('h.owner_id', '=', owner.id)
        .executeTakeFirstOrThrow()
    ).n,
  );

it(
  'fans out every event of a burst past the old limit, and another seller is delivered',
  { timeout: 60_000 },
  async () => {
    const other = await openShop(t.app);
    await createHook(other.seller, 'order.create', quiet.url('/other'));
    const burst = await openShop(t.app);
    await Promise.all(
      Array.from({ length: HOOKS }, (_, k) =>
        createHook(burst.seller, '*', busy.url(`/burst/${k}`)),
      ),
    );
    // Each booking: an order.create and an event.update for each of its 20 departures.
    const bookings = await Promise.all(
      Array.from({ length: BOOKINGS }, (_, b) =>
        book(t.app, burst.seller, {
          customerName: `Burst ${b}`,
          items: Array.from({ length: ITEMS }, (_, i) =>
            item(burst.experienceId, day(b * 10 + (i >> 1)), i % 2 ? 1400 : 900),
          ),
        }),
      ),
    );
    expect(bookings.map((r) => r.statusCode)).toEqual(Array(BOOKINGS).fill(201));
    const heard = BOOKINGS * (ITEMS + 1) * HOOKS;
    expect(heard).toBeGreaterThan(65_535 / 7);
    const booked = await book(t.app, other.seller, {
      customerName: 'Other',
      items: [item(other.experienceId)],
    });
    expect(booked.statusCode, booked.body).toBe(201);

    // One fan-out writes one budget's worth, whole events only, and leaves the rest waiting.
    const waiting = await waitingForFanOut();
    expect(waiting).toBeGreaterThan(BOOKINGS * (ITEMS + 1));
    expect(await deliveriesRepository(t.database.db).fanOut(200)).toBeGreaterThan(0);
    expect(await deliveriesTo(burst.seller)).toBe(DELIVERIES_PER_FAN_OUT);

    const lines: string[] = [];
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n')));
    const dispatcher = await buildApp(
      testConfig({ BOOKING_ENV: 'sandbox', WEBHOOK_DISPATCH: 'true', WEBHOOK_POLL_MS: '25' }),
      { database: t.database, logStream },
    );
    await dispatcher.ready();
    try {
      await quiet.waitFor((all) => all.some((r) => r.path === '/other'), 15_000);
      await expect.poll(waitingForFanOut, { timeout: 10_000 }).toBe(0);
      expect(await deliveriesTo(burst.seller)).toBe(heard);
      expect(lines.filter((l) => l.includes('webhook poll failed'))).toEqual([]);
      expect(busy.received.length).toBeGreaterThan(0);
    } finally {
      await dispatcher.close();
    }
  },
);
