/**
 * A send must end inside its claim's lease, composing included: the deadline runs from the
 * claim, not from the SMTP session's start, and a claim whose time went on composing (a
 * starved pool) hands the message back without sending. Otherwise the lease ran out mid-send
 * and another instance sent the same email too (review finding 7). Scaled down: a 4 s lease
 * (3.2 s to send), the first composing taking 3.8 s, a relay answering in 0.7 s.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfirmation } from '../../src/mail/confirmation.sources.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { book, item, openShop } from '../helpers/booking.js';
import { mailDispatcher, outboxOf } from './mail-flow.js';
import { startSmtpServer } from './smtp.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

it('two instances send an email once though its first composing outlasts the claim', async () => {
  const smtp = await startSmtpServer(0, { beforeAccept: () => sleep(700) });
  const shop = await openShop(t.app);
  const r = await book(t.app, shop.seller, {
    customerName: 'Ann Walker',
    customerEmail: 'ann@example.com',
    items: [item(shop.experienceId)],
  });
  expect(r.statusCode, r.body).toBe(201);
  let loads = 0;
  const slowFirst: typeof loadConfirmation = async (db, id) => {
    if (++loads === 1) await sleep(3800); // waiting for a pool connection under load
    return loadConfirmation(db, id);
  };
  const options = { pollMs: 50, retryBaseMs: 50, leaseMs: 4000, loadConfirmation: slowFirst };
  const a = mailDispatcher(t.database, smtp.port, options);
  const b = mailDispatcher(t.database, smtp.port, options);
  try {
    a.start();
    await sleep(300);
    b.start();
    const deadline = Date.now() + 30_000;
    while (smtp.received.length === 0 && Date.now() < deadline) await sleep(50);
    await sleep(5000); // past a lease: a second claim would have sent it by now
  } finally {
    await a.stop();
    await b.stop();
    await smtp.close();
  }
  expect(smtp.received).toHaveLength(1);
  // The claim that only composed did not count: one attempt, the one that sent it.
  expect((await outboxOf(t.database, [r.json().id]))[0]).toMatchObject({
    status: 'sent',
    attempts: 1,
  });
});
