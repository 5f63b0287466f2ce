/**
 * What a burst of password sign-ins does to everyone else (issue 10, item 4): 32 concurrent
 * Basic requests with wrong passwords against the embedded server, while an unrelated
 * request (GET /api/experiences) is timed. Run with PASSWORD_HASH_CONCURRENCY set to compare
 * (64 is the old, unbounded behaviour on this machine):
 *
 *   PASSWORD_HASH_CONCURRENCY=64 npx tsx bench/auth-storm.ts
 *   PASSWORD_HASH_CONCURRENCY=2 npx tsx bench/auth-storm.ts
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-storm-'));
const app = await buildApp(
  loadConfig({
    DATA_DIR: dir,
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
    BOOKING_ENV: 'sandbox',
    BOOKING_SECRET: 'x'.repeat(40),
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '0',
    SIGNUPS_PER_ADDRESS: '0',
    AUTH_FAILURES_PER_ADDRESS: '0',
    PASSWORD_HASH_CONCURRENCY: process.env.PASSWORD_HASH_CONCURRENCY ?? '2',
  }),
);
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
const basicHeader = `Basic ${Buffer.from('nobody@example.com:wrong password').toString('base64')}`;

async function unrelated(): Promise<number> {
  const started = performance.now();
  await fetch(`${base}/api/experiences`);
  return performance.now() - started;
}

const idle: number[] = [];
for (let i = 0; i < 20; i++) idle.push(await unrelated());
const storm = Array.from({ length: 32 }, () =>
  fetch(`${base}/api/users/me`, { headers: { authorization: basicHeader } }).then((r) => r.status),
);
await new Promise((resolve) => setTimeout(resolve, 20));
const during: number[] = [];
for (let i = 0; i < 5; i++) during.push(await unrelated());
const statuses = await Promise.all(storm);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  JSON.stringify({
    concurrency: process.env.PASSWORD_HASH_CONCURRENCY ?? '2',
    unrelatedIdleMedianMs: Math.round(median(idle)),
    unrelatedDuringStormMs: during.map(Math.round),
    stormStatuses: statuses.reduce<Record<number, number>>(
      (t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }),
      {},
    ),
  }),
);
await app.close();
fs.rmSync(dir, { recursive: true, force: true });
