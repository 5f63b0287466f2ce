/**
 * `npm run bench:embedded [-- --orders 50000]`: the server's memory on the embedded
 * database (PGlite), which `npm run bench` (PostgreSQL) does not see. A fresh data
 * directory is seeded with `cli seed`, the built service started as `npm start` starts it,
 * then three phases, RSS sampled from /proc every 100 ms in each: start-up, 600 ordinary
 * requests (one order, a page of 20, an experience's events) at 8 connections, and 64
 * connections of 100-row order pages for 10 s. Prints the peak of each, in MB, as JSON.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { api } from './accounts.js';
import { BENCH_SECRET } from './database.js';
import { runLoad } from './load.js';
import { build, rssMb, sampleRss, startService } from './processes.js';

const ROOT = path.join(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const orders = Number(argv[argv.indexOf('--orders') + 1] ?? '') || 50_000;
const log = (line: string) => process.stderr.write(`[bench:embedded] ${line}\n`);

// The floor server (issue 27) speaks to a PostgreSQL server through pg; PGlite has none.
log('the floor comparison is PostgreSQL-only (npm run bench): not run on the embedded database');
build();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-embedded-bench-'));
const env = {
  DATA_DIR: dataDir,
  BOOKING_SECRET: BENCH_SECRET,
  LOG_LEVEL: 'warn',
  RATE_LIMIT_MAX: '0',
  SIGNUPS_PER_ADDRESS: '0',
  DEMO_PAGE: 'false',
};
const cli = (args: string[]) => {
  const run = spawnSync(process.execPath, ['dist/cli.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`cli ${args.join(' ')} failed: ${run.stderr}`);
  return run.stdout;
};

try {
  log(`seeding ${orders} orders`);
  // The seeder refuses a data directory without a database (it never makes one itself).
  cli(['migrate']);
  cli(['seed', '--orders', String(orders), '--sellers', '50']);
  const server = await startService(env);
  try {
    const startup = rssMb(server.pid);
    const { apiKey } = JSON.parse(
      cli(['users', 'create', '--email', 'bench-admin@bench.invalid', '--name', 'A', '--admin']),
    ) as { apiKey: string };
    const page = await api<{ data: { id: string; items: { experience: { id: string } }[] }[] }>(
      server.baseUrl,
      'GET',
      '/api/orders?limit=20',
      apiKey,
    );
    const order = page.data[0]!;
    const ordinary = [
      `/api/orders/${order.id}`,
      '/api/orders?limit=20',
      `/api/events?experience=${order.items[0]!.experience.id}&limit=20`,
    ];
    const load = async (paths: string[], connections: number, amount: Record<string, number>) => {
      const stop = sampleRss(server.pid);
      const result = await runLoad({
        url: server.baseUrl,
        connections,
        durationSec: 10,
        method: 'GET',
        headers: { 'x-api-key': apiKey },
        paths,
        ...amount,
      });
      return { peakMb: stop(), rps: result.requests / result.durationSec, ...result.statuses };
    };
    log('600 ordinary requests at 8 connections');
    const ordinaryPhase = await load(ordinary, 8, { amount: 600 });
    log('64 connections of 100-row pages for 10 s');
    const pages = await load(['/api/orders?limit=100'], 64, {});
    process.stdout.write(
      `${JSON.stringify({ orders, startupMb: startup, ordinary: ordinaryPhase, pages }, null, 2)}\n`,
    );
  } finally {
    await server.stop();
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
