/**
 * An Idempotency-Key taken over while its first request still runs (PostgreSQL's row locks):
 * a request that looks dead after 60 s (STALE_MS) may only be slow, queued for a lock or a
 * connection. Its retry takes the key over and books; the first request then finds its key
 * no longer its own when it stores its answer, and its whole transaction is rolled back
 * (`409 idempotency_in_progress`), so one order is made, not two. Before, both committed:
 * two orders for one key (review of idempotency, finding 7).
 *
 * A plain connection holds the departure's event locked, so that both requests wait at a
 * known point inside their transactions; "60 s later" is the key's `locked_at` moved back.
 */
import type pg from 'pg';
import { sql } from 'kysely';
import { openLocker, waitingOnLock } from '../helpers/lock-waits.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';

let t: TestApp;
let shop: Shop;
let customer: Account;
let locker: pg.Client;

beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
  customer = await signUp(t.app);
  locker = await openLocker(t.database);
});
afterAll(async () => {
  await locker.end();
  await t.close();
});

const waiting = (count: number) => waitingOnLock(locker, count);

it('books once when a retry takes over a request still running; the first is rolled back', async () => {
  const booking = {
    customerName: 'Slow Sam',
    items: [item(shop.experienceId, '2030-06-01', 900, 2)],
  };
  // The departure's event exists (a first booking made it), and is locked by the locker.
  const first = await book(t.app, customer, { customerName: 'Warm', items: booking.items });
  expect(first.statusCode, first.body).toBe(201);
  const eventId = first.json().items[0].event.id as string;
  await locker.query('begin');
  await locker.query('select 1 from events where id = $1 for update', [eventId]);

  const key = { 'idempotency-key': 'slow-sam-1' };
  const slow = book(t.app, customer, booking, key);
  expect(await waiting(1)).toBe(true);
  // A minute passes: the first request looks dead to a retry.
  // (On the app's pool: the locker's own transaction is rolled back below.)
  const backdated =
    await sql`update idempotency_keys set locked_at = locked_at - interval '2 minutes'
    where key = 'slow-sam-1'`.execute(t.database.db);
  expect(backdated.numAffectedRows).toBe(1n);
  const retry = book(t.app, customer, booking, key);
  expect(await waiting(2)).toBe(true);
  await locker.query('rollback');
  const answers = await Promise.all([slow, retry]);

  expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
  const refused = answers.find((a) => a.statusCode === 409)!;
  expect(refused.json().code).toBe('idempotency_in_progress');
  const { rows } = await locker.query<{ n: number; seats: number }>(
    `select count(*)::int as n from orders where customer_name = 'Slow Sam'`,
  );
  expect(rows[0]!.n).toBe(1);
  // The event holds the warm-up's seats and one booking's, not two.
  const seats = await locker.query<{ reserved: number }>(
    'select reserved from events where id = $1',
    [eventId],
  );
  expect(seats.rows[0]!.reserved).toBe(4);
  // A retry now replays the answer that was kept.
  const replay = await book(t.app, customer, booking, key);
  expect(replay.statusCode).toBe(201);
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(replay.json().id).toBe(answers.find((a) => a.statusCode === 201)!.json().id);
});
