/**
 * Two instances on one PostgreSQL database, both dispatching webhooks (as in production
 * with several processes): every event reaches every listening hook exactly once, whichever
 * instance the change went through and whichever dispatcher claimed the delivery.
 */
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { as, signUp, testConfig, type Account } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { createTestDatabaseUrl } from '../helpers/database.js';
import { startReceiver, verify, type Receiver } from '../helpers/webhook-receiver.js';

const BOOKINGS = 60;

interface Instance {
  app: FastifyInstance;
  database: Database;
  delivered: () => number;
}

let drop: () => Promise<void>;
let instances: Instance[] = [];
let receiver: Receiver;

async function startInstance(url: string): Promise<Instance> {
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 5 });
  const lines: string[] = [];
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n')));
  const app = await buildApp(
    testConfig({
      BOOKING_ENV: 'sandbox',
      WEBHOOK_DISPATCH: 'true',
      WEBHOOK_POLL_MS: '20',
      LOG_LEVEL: 'info',
    }),
    { database, logStream },
  );
  await app.ready();
  return {
    app,
    database,
    delivered: () => lines.filter((l) => l.includes('"webhook delivered"')).length,
  };
}

beforeAll(async () => {
  const created = await createTestDatabaseUrl();
  drop = () => created.drop();
  instances = [await startInstance(created.url), await startInstance(created.url)];
  receiver = await startReceiver();
});
afterAll(async () => {
  for (const i of instances) {
    await i.app.close();
    await i.database.close();
  }
  await receiver.close();
  await drop();
});

describe('two dispatchers on one database', () => {
  it('deliver each event to each hook once', async () => {
    const [a, b] = instances as [Instance, Instance];
    const shop: Shop = await openShop(a.app);
    const secrets: Record<string, string> = {};
    for (const path of ['/one', '/two']) {
      const hook = await as(a.app, shop.seller, {
        method: 'POST',
        url: `/api/users/${shop.seller.id}/hooks`,
        payload: { eventName: 'order.create', url: receiver.url(path) },
      });
      expect(hook.statusCode, hook.body).toBe(201);
      secrets[path] = hook.json().secret;
    }
    const buyer: Account = await signUp(b.app);
    const responses = await Promise.all(
      Array.from({ length: BOOKINGS }, (_, i) =>
        book(i % 2 ? a.app : b.app, buyer, {
          items: [item(shop.experienceId, `2030-07-${String((i % 28) + 1).padStart(2, '0')}`)],
        }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(responses.map(() => 201));

    await receiver.waitFor((all) => all.length >= 2 * BOOKINGS, 20_000);
    // Time for a duplicate, if there were to be one, to arrive.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received).toHaveLength(2 * BOOKINGS);
    for (const path of ['/one', '/two']) {
      const got = receiver.received.filter((r) => r.path === path);
      const orders = got.map((r) => r.json.data.id as string).sort();
      expect(orders).toEqual(responses.map((r) => r.json().id as string).sort());
      expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(BOOKINGS);
      for (const r of got) verify(secrets[path]!, r);
    }
    // Between them they delivered each once (how the work splits depends on timing).
    expect(a.delivered() + b.delivered()).toBe(2 * BOOKINGS);
  });
});
