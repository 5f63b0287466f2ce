/**
 * What the API-key cache saves (issue 15): GET /api/users/me (authentication plus one
 * query) for 10 s at 8 connections, with the cache on and off, in one run against one
 * database, alternating (the load generator runs in the same process).
 *
 *   BENCH_DATABASE_URL=postgres://... npx tsx bench/auth-cache.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildApp, openAppDatabase } from '../src/app.js';
import { loadConfig } from '../src/config.js';

const env = {
  DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'bench-auth-cache-')),
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  MIGRATE_ON_START: 'true',
  BOOKING_SECRET: 'x'.repeat(40),
  LOG_LEVEL: 'silent',
  RATE_LIMIT_MAX: '0',
  SIGNUPS_PER_ADDRESS: '0',
  WEBHOOK_DISPATCH: 'false',
};
const database = await openAppDatabase(loadConfig(env));

async function serve(ttl: string) {
  const app = await buildApp(loadConfig({ ...env, API_KEY_CACHE_TTL_MS: ttl }), { database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
}

const on = await serve('60000');
const off = await serve('0');
const signUp = await fetch(`${on.url}/api/users`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    name: 'Bench',
    email: `b.${Date.now()}@example.com`,
    password: 'bench password 1',
  }),
});
const { apiKey } = (await signUp.json()) as { apiKey: string };

function load(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${url}/api/users/me`,
        connections: 8,
        duration: 10,
        headers: { 'x-api-key': apiKey },
      },
      (error, result) => {
        if (error)
          return reject(
            error instanceof Error ? error : new Error('autocannon failed', { cause: error }),
          );
        if (result.non2xx > 0) return reject(new Error(`${result.non2xx} non-2xx answers`));
        resolve(Math.round(result.requests.average));
      },
    );
  });
}

const rounds: { cacheOn: number[]; cacheOff: number[] } = { cacheOn: [], cacheOff: [] };
for (let i = 0; i < 2; i++) {
  rounds.cacheOff.push(await load(off.url));
  rounds.cacheOn.push(await load(on.url));
}
console.log(
  JSON.stringify({
    database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'embedded',
    requestsPerSecond: rounds,
  }),
);
await on.app.close();
await off.app.close();
await database.close();
