/**
 * Giving up on a hook, through the public API and the real dispatcher (review-octo findings
 * 6 and 7): a signing secret this instance cannot open is a failed attempt like any other
 * (recorded, retried on the schedule, given up); several deliveries to one hook that give up
 * together tell its owner once; and giving up is one transaction with disabling the hook, so
 * a failure between the two leaves neither done.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { as, createTestApp, type Account, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  t = await createTestApp({
    BOOKING_ENV: 'sandbox',
    WEBHOOK_DISPATCH: 'true',
    WEBHOOK_POLL_MS: '25',
    WEBHOOK_TIMEOUT_MS: '400',
    // One retry: the second failed attempt gives up.
    WEBHOOK_RETRY_SCHEDULE_MS: '50',
  });
  receiver = await startReceiver();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

async function createHook(owner: Account, eventName: string, path: string): Promise<string> {
  const response = await as(t.app, owner, {
    method: 'POST',
    url: `/api/users/${owner.id}/hooks`,
    payload: { eventName, url: receiver.url(path) },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

async function bookOne(shop: Shop, name = 'Guest') {
  const booked = await book(t.app, shop.seller, {
    customerName: name,
    items: [item(shop.experienceId)],
  });
  expect(booked.statusCode, booked.body).toBe(201);
}

const hookStatus = async (id: string) =>
  (
    await t.database.db
      .selectFrom('hooks')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).status;

const deliveriesOf = (hookId: string) =>
  t.database.db
    .selectFrom('webhook_deliveries')
    .select(['id', 'status', 'attempts'])
    .select(sql<boolean>`locked_until is not null`.as('leased'))
    .where('hook_id', '=', hookId)
    .execute();

const disabledNotices = async (hookId: string) =>
  (
    await t.database.db
      .selectFrom('outbox')
      .select('id')
      .where('kind', '=', 'hook_disabled')
      .where('hook_id', '=', hookId)
      .execute()
  ).length;

it('a signing secret that cannot be opened is a failed attempt: recorded, retried, given up', async () => {
  const shop = await openShop(t.app);
  const hookId = await createHook(shop.seller, 'order.create', '/unreadable');
  // What an instance with another BOOKING_SECRET, or a damaged row, reads.
  await t.database.db
    .updateTable('hooks')
    .set({ secret_ciphertext: Buffer.from('not a sealed secret at all') })
    .where('id', '=', hookId)
    .execute();
  await bookOne(shop);
  await vi.waitFor(async () => expect(await hookStatus(hookId)).toBe('disabled'), {
    timeout: 5000,
  });
  const [delivery] = await deliveriesOf(hookId);
  expect(delivery).toMatchObject({ status: 'failed', attempts: 2 });
  const attempts = await t.database.db
    .selectFrom('webhook_attempts')
    .select(['attempt', 'error', 'status_code'])
    .where('delivery_id', '=', delivery!.id)
    .orderBy('attempt')
    .execute();
  expect(attempts.map((a) => a.attempt)).toEqual([1, 2]);
  for (const a of attempts) {
    expect(a.status_code).toBeNull();
    expect(a.error).toMatch(/^signing secret unreadable: /);
  }
  expect(await disabledNotices(hookId)).toBe(1);
  expect(receiver.received.filter((r) => r.path === '/unreadable')).toEqual([]);
});

it('deliveries to one hook that give up together tell its owner once', async () => {
  const shop = await openShop(t.app);
  receiver.answer((r) => ({ status: r.path === '/down' ? 503 : 204, delayMs: 100 }));
  const hookId = await createHook(shop.seller, '*', '/down');
  await Promise.all(['A', 'B', 'C'].map((name) => bookOne(shop, name)));
  await vi.waitFor(async () => expect(await hookStatus(hookId)).toBe('disabled'), {
    timeout: 5000,
  });
  // Those in flight when it was disabled give up too, after it: wait for every outcome.
  await vi.waitFor(
    async () => expect((await deliveriesOf(hookId)).filter((d) => d.leased)).toEqual([]),
    { timeout: 5000 },
  );
  const failed = (await deliveriesOf(hookId)).filter((d) => d.status === 'failed');
  expect(failed.length).toBeGreaterThan(1);
  expect(await disabledNotices(hookId)).toBe(1);
});

it('giving up and disabling the hook commit together or not at all', async () => {
  const shop = await openShop(t.app);
  receiver.answer((r) => ({ status: r.path === '/broken' ? 500 : 204 }));
  const hookId = await createHook(shop.seller, 'order.create', '/broken');
  // Telling the owner fails (the outbox refuses its row): the disabling transaction fails.
  await sql`create or replace function refuse_hook_notice() returns trigger language plpgsql as $$
    begin
      if new.kind = 'hook_disabled' then raise exception 'outbox unavailable'; end if;
      return new;
    end $$`.execute(t.database.db);
  await sql`create trigger refuse_hook_notice before insert on outbox
    for each row execute function refuse_hook_notice()`.execute(t.database.db);
  try {
    await bookOne(shop);
    await vi.waitFor(
      () => expect(receiver.received.filter((r) => r.path === '/broken')).toHaveLength(2),
      { timeout: 5000 },
    );
    await vi.waitFor(() => expect(t.logs.join('\n')).toMatch(/outbox unavailable/), {
      timeout: 5000,
    });
    // Not given up while its hook stays enabled: the lease brings it back to give up again.
    const [delivery] = await deliveriesOf(hookId);
    expect(await hookStatus(hookId)).toBe('enabled');
    expect(delivery!.status).toBe('pending');
  } finally {
    await sql`drop trigger refuse_hook_notice on outbox`.execute(t.database.db);
  }
});
