/**
 * A graceful stop of the real process while every kind of slow party holds it: a relay
 * that takes seconds to accept each email, a webhook receiver that takes seconds to
 * answer, and an anonymous client trickling a request body. The stop must exit 0 within
 * its budget, claim nothing after SIGTERM, and leave nothing claimed without an outcome:
 * after a restart, every webhook reaches the receiver once and every email the relay once.
 *
 * Before the fix, workers kept claiming through the drain and the HTTP close, were stopped
 * one after another, and the close waited for the trickled body: the process exited 1 at
 * its budget with deliveries and emails claimed, sent again after the restart (review of
 * the process's life, shutdown finding).
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { buildTemplate } from '../../scripts/template.js';
import { createTestDatabaseUrl, onPostgres } from '../helpers/database.js';
import { buildBundle, startServer, type ServerProcess } from '../helpers/server-process.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { startSmtpServer, type TestSmtpServer } from '../mail/smtp.js';

const ORDERS = 20;
/** How long the receiver and the relay take: well within their timeouts below. */
const RECEIVER_MS = 2000;
const RELAY_MS = 3000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let bundle: Awaited<ReturnType<typeof buildBundle>>;
let dataDir: string | undefined;
let database: Awaited<ReturnType<typeof createTestDatabaseUrl>> | undefined;
let receiver: Receiver;
let relay: TestSmtpServer;
/** When the relay got the end of each message's data (it accepts RELAY_MS later). */
const relayed: number[] = [];

beforeAll(async () => {
  if (onPostgres) database = await createTestDatabaseUrl();
  else {
    await buildTemplate();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-shutdown-'));
  }
  bundle = await buildBundle();
  receiver = await startReceiver();
  receiver.answer(() => ({ status: 200, delayMs: RECEIVER_MS }));
  relay = await startSmtpServer(0, {
    beforeAccept: () => {
      relayed.push(Date.now());
      return sleep(RELAY_MS);
    },
  });
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await relay?.close();
  bundle?.remove();
  await database?.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

function start(): Promise<ServerProcess> {
  return startServer(bundle.bundle, {
    ...(database ? { DATABASE_URL: database.url } : { DATABASE_URL: '', DATA_DIR: dataDir! }),
    BOOKING_ENV: 'sandbox', // webhooks to a loopback receiver
    BOOKING_SECRET: 'shutdown-claims-test-secret-0123456789abcdef',
    SMTP_URL: `smtp://127.0.0.1:${relay.port}`,
    SHUTDOWN_DRAIN_MS: '2000',
    WEBHOOK_TIMEOUT_MS: '5000',
    WEBHOOK_POLL_MS: '100',
    OUTBOX_SEND_TIMEOUT_MS: '6000',
    OUTBOX_POLL_MS: '200',
    // The default: a trickled body may take 30 s, longer than the whole budget.
    REQUEST_TIMEOUT_MS: '30000',
  });
}

async function api(base: string, url: string, body: unknown, apiKey?: string) {
  const response = await fetch(base + url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, string>;
  expect(response.status, JSON.stringify(json)).toBe(201);
  return json;
}

/** An anonymous sign-up whose body comes a byte every 250 ms (a minute in all). */
async function trickle(base: string): Promise<{ closed: Promise<void>; stop(): void }> {
  const body = JSON.stringify({
    name: 'Slow Loris',
    email: 'slow@example.com',
    password: 'correct horse battery',
  });
  const socket = net.connect(Number(new URL(base).port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(
    'POST /api/users HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
  );
  let sent = 0;
  const timer = setInterval(() => {
    if (sent < body.length && !socket.destroyed) socket.write(body[sent++]!);
  }, 250);
  void closed.then(() => clearInterval(timer));
  return {
    closed,
    stop: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

async function until(what: string, check: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(50);
  }
}

const webhookIds = () => receiver.received.map((r) => r.headers['webhook-id']!);
const messageIds = () =>
  relay.received.map((m) => /^Message-ID:\s*(\S+)/im.exec(m.raw)?.[1] ?? 'none');
const counts = (ids: string[]) => {
  const byId = new Map<string, number>();
  for (const id of ids) byId.set(id, (byId.get(id) ?? 0) + 1);
  return byId;
};
const twice = (ids: string[]) => [...counts(ids)].filter(([, n]) => n > 1);

it('stops within its budget with a slow relay, a slow receiver and a trickled body, and sends nothing twice after a restart', async () => {
  const first = await start();
  let slow: Awaited<ReturnType<typeof trickle>> | undefined;
  let signalled = 0;
  try {
    const seller = await api(first.base, '/api/users', {
      name: 'Seller',
      email: 'seller@example.com',
      password: 'correct horse battery',
      roles: ['ROLE_SELLER'],
    });
    const experience = await api(
      first.base,
      '/api/experiences',
      {
        name: 'Harbour Kayak',
        price: 25.5,
        priceType: 'person',
        currency: 'EUR',
        duration: 90,
        timezone: 'Europe/Paris',
        group: { outingMax: 1000 },
        schedules: [
          { type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: [900] },
        ],
      },
      seller.apiKey,
    );
    await api(
      first.base,
      `/api/users/${seller.id}/hooks`,
      { eventName: 'order.create', url: receiver.url() },
      seller.apiKey,
    );
    for (let i = 0; i < ORDERS; i++) {
      await api(
        first.base,
        '/api/orders',
        {
          customerName: 'Ann Walker',
          customerEmail: `c${i}@example.com`,
          items: [
            {
              experience: { id: experience.id },
              arrival: '2030-06-01',
              arrivalTime: 900,
              quantity: 1,
            },
          ],
        },
        seller.apiKey,
      );
    }
    // Work in flight on both: deliveries waiting for the receiver, emails for the relay.
    await until('a delivery and an email in flight', () => {
      return receiver.received.length > 0 && relayed.length > 0;
    });
    slow = await trickle(first.base);
    await sleep(200);

    signalled = Date.now();
    first.child.kill('SIGTERM');
    const code = await first.exited;
    const took = Date.now() - signalled;
    const output = first.output();
    const budgetMs = Number(/"budgetMs":(\d+)/.exec(output)?.[1]);
    expect(budgetMs, output).toBe(2000 + 11_000); // drain + the email's 6 s + 5 s
    expect(output).not.toMatch(/shutdown did not finish/);
    expect(code, output).toBe(0);
    expect(took, output).toBeLessThan(budgetMs);
    // The trickled body did not hold the stop: its connection was closed without an answer.
    await slow.closed;

    // Nothing was claimed after SIGTERM (a claim under way at that moment may still start).
    const late = signalled + 1000;
    expect(receiver.received.filter((r) => r.at > late).map((r) => r.at - signalled)).toEqual([]);
    expect(relayed.filter((at) => at > late).map((at) => at - signalled)).toEqual([]);
    if (database) {
      // What was in flight recorded its outcome: no claim is left to run out.
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const leased = await client.query<{ deliveries: number; emails: number }>(
          `select (select count(*)::int from webhook_deliveries
                    where status = 'pending' and locked_until > now()) as deliveries,
                  (select count(*)::int from outbox
                    where status = 'pending' and locked_until > now()) as emails`,
        );
        expect(leased.rows[0]).toEqual({ deliveries: 0, emails: 0 });
      } finally {
        await client.end();
      }
    }
  } finally {
    slow?.stop();
    if (first.child.exitCode === null) first.child.kill('SIGKILL');
  }

  // The next start sends the rest. A claim left behind would come back when its lease ran
  // out (a delivery's 5 s * 2 + 5 s, an email's 6 s / 0.8, from its claim): wait past both.
  const second = await start();
  try {
    await until(`${ORDERS} distinct webhook ids`, () => counts(webhookIds()).size === ORDERS);
    await until(`${ORDERS} customers emailed`, () => {
      const to = new Set(relay.received.flatMap((m) => m.rcptTo));
      return Array.from({ length: ORDERS }, (_, i) => `c${i}@example.com`).every((a) => to.has(a));
    });
    await sleep(Math.max(0, signalled + 16_000 - Date.now()));
    expect(twice(webhookIds())).toEqual([]);
    expect(twice(messageIds())).toEqual([]);
    expect(receiver.received.length).toBe(ORDERS);
  } finally {
    second.child.kill('SIGTERM');
    expect(await second.exited, second.output()).toBe(0);
  }
}, 150_000);
