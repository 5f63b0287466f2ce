/**
 * A database blip right after the relay accepted an email does not send it twice: the
 * dispatcher keeps trying to record the send until its claim's lease nearly ends (it gave up
 * after three tries over 0.6 s, and the message came back when the lease ran out and went
 * out again; review of mail, finding 6). Longer than the lease, the send is not recorded and
 * the lease brings it back: at least once is what email can promise.
 */
import { UpdateQueryNode, type Kysely, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/types.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { book, item, openShop } from '../helpers/booking.js';
import { mailDispatcher, makeDue, outboxOf, recordingLogger } from './mail-flow.js';
import { startSmtpServer } from './smtp.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/**
 * The database as the dispatcher sees it, failing every "mark sent" from `blip()` for `ms`:
 * a connection lost and found again (other statements pass, as on another connection).
 */
function blipping(db: Kysely<DB>, ms: number) {
  let until = 0;
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (
        UpdateQueryNode.is(args.node) &&
        Date.now() < until &&
        JSON.stringify(args.node).includes('"sent"')
      )
        throw new Error('Connection terminated unexpectedly');
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(plugin), blip: () => (until = Date.now() + ms) };
}

async function bookOne(): Promise<string> {
  const shop = await openShop(t.app);
  const r = await book(t.app, shop.seller, {
    customerName: 'Ann Walker',
    customerEmail: 'ann@example.com',
    items: [item(shop.experienceId)],
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().id;
}

describe('a database blip after the relay accepted an email', () => {
  it('of a second and a half is waited out inside the lease: sent once, recorded', async () => {
    const orderId = await bookOne();
    const { db, blip } = blipping(t.database.db, 1500);
    const smtp = await startSmtpServer(0, { beforeAccept: async () => void blip() });
    const logger = recordingLogger();
    // A 4 s send leaves a lease of 5 s: a second of it to record the outcome.
    const mail = mailDispatcher({ ...t.database, db }, smtp.port, { sendTimeoutMs: 4000, logger });
    try {
      expect(await mail.runOnce()).toBe(1);
      const [row] = await outboxOf(t.database, [orderId]);
      expect(row).toMatchObject({ status: 'sent' });
      // Nothing is due again, however much time passes.
      await makeDue(t.database);
      expect(await mail.runOnce()).toBe(0);
      expect(smtp.received).toHaveLength(1);
      expect(logger.lines.filter((l) => l.level === 'error')).toEqual([]);
    } finally {
      await mail.stop();
      await smtp.close();
    }
  });
});
