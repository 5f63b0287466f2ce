/**
 * A delivery giving up while its hook is deleted (PostgreSQL's row locks): giving up writes
 * the delivery and disables the hook in one transaction, and a hook's deletion locks the
 * hook, then its deliveries (the cascade). The give-up took them the other way round, and
 * the two deadlocked: the seller's DELETE answered 500 (found by the session's diff review).
 * Now the give-up locks the hook first, so the DELETE waits for it and then succeeds.
 */
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deliveriesRepository } from '../../src/modules/hooks/deliveries.repository.js';
import { hooksRepository } from '../../src/modules/hooks/hooks.repository.js';
import { as, createTestApp, type TestApp } from '../helpers/app.js';
import { book, item, openShop } from '../helpers/booking.js';
import { openLocker, waitingOnLock } from '../helpers/lock-waits.js';

let t: TestApp;
let watcher: pg.Client;
beforeAll(async () => {
  t = await createTestApp({ BOOKING_ENV: 'sandbox' });
  watcher = await openLocker(t.database);
});
afterAll(async () => {
  await watcher.end();
  await t.close();
});

it('lets the hook be deleted once the give-up commits, instead of a deadlock', async () => {
  const shop = await openShop(t.app);
  const created = await as(t.app, shop.seller, {
    method: 'POST',
    url: `/api/users/${shop.seller.id}/hooks`,
    payload: { eventName: 'order.create', url: 'http://127.0.0.1:9/x' },
  });
  expect(created.statusCode, created.body).toBe(201);
  const hookId = created.json<{ id: string }>().id;
  const booked = await book(t.app, shop.seller, {
    customerName: 'Guest',
    items: [item(shop.experienceId)],
  });
  expect(booked.statusCode).toBe(201);
  const repo = deliveriesRepository(t.database.db);
  await repo.fanOut(200);
  const [claim] = await repo.claimDue(10, 60_000);
  expect(claim?.hook_id).toBe(hookId);
  let deleted: Promise<{ statusCode: number; body: string }> | undefined;
  const outcome = { ok: false, statusCode: 500, error: 'x', response: null, durationMs: 1 };
  const recorded = await repo.record(claim!, outcome, 'give-up', async (tx) => {
    // The seller deletes the hook while the give-up's transaction is open.
    deleted = as(t.app, shop.seller, {
      method: 'DELETE',
      url: `/api/users/${shop.seller.id}/hooks/${hookId}`,
    });
    expect(await waitingOnLock(watcher, 1)).toBe(true);
    await hooksRepository(tx).disableFailing(hookId);
  });
  expect(recorded).toBe(true);
  const answer = await deleted!;
  expect(answer.statusCode, answer.body).toBe(204);
});
