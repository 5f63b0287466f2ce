/**
 * A stop while the relay holds an email's end of data: the app closes within the shutdown
 * budget its configuration implies (server.ts gives up and exits 1 past it), and the send
 * ends with a recorded outcome, to be retried, instead of being cut off claimed and without
 * one (review finding 3).
 */
import { expect, it } from 'vitest';
import { shutdownBudgetMs } from '../../src/shutdown-budget.js';
import { createTestApp } from '../helpers/app.js';
import { book, item, openShop } from '../helpers/booking.js';
import { startSmtpServer } from './smtp.js';

it('closes within the budget while a send hangs, and records the send as failed', async () => {
  let arrived!: () => void;
  const dataArrived = new Promise<void>((resolve) => (arrived = resolve));
  const smtp = await startSmtpServer(0, {
    beforeAccept: () => {
      arrived();
      return new Promise(() => undefined); // never answers the end of data
    },
  });
  const t = await createTestApp({
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    OUTBOX_SEND_TIMEOUT_MS: '2000',
  });
  try {
    const shop = await openShop(t.app);
    const r = await book(t.app, shop.seller, {
      customerName: 'Ann Walker',
      customerEmail: 'ann@example.com',
      items: [item(shop.experienceId)],
    });
    expect(r.statusCode, r.body).toBe(201);
    await dataArrived;
    const started = Date.now();
    await t.app.close();
    const took = Date.now() - started;
    expect(took, `closed in ${took} ms`).toBeLessThan(shutdownBudgetMs(t.config));
    const row = await t.database.db
      .selectFrom('outbox')
      .selectAll()
      .where('order_id', '=', r.json().id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', attempts: 1, locked_until: null });
    expect(row.last_error).toBeTruthy();
  } finally {
    await t.database.close();
    await smtp.close();
  }
}, 60_000);
