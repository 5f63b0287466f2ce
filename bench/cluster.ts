/**
 * One and two instances behind HAProxy (deploy/haproxy.cfg), in one run on one database
 * (issue 16): requests/s through the balancer for a read (GET one experience) and for
 * bookings, next to one instance without the balancer (what the balancer costs), and the
 * CPU each request took in the service's processes and in PostgreSQL's (from /proc), which
 * docs/scaling.md builds on. On two cores the second instance is not expected to add much.
 *
 *   npx tsx bench/cluster.ts [--duration S] [--connections N] [--no-build]
 *   (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/booking_bench_cluster)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openAppDatabase } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { runLoad, type LoadJob } from './load.js';
import { build, freePort, startService, type Running } from './processes.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    'no-build': { type: 'boolean', default: false },
  },
});
const durationSec = Number(values.duration);
const connections = Number(values.connections);
const url =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/booking_bench_cluster';
const ROOT = path.join(import.meta.dirname, '..');

async function ensureDatabase(): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  target.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: target.toString() });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
  if (exists.rowCount === 0) await admin.query(`create database "${name}"`);
  await admin.end();
  const database = await openAppDatabase(
    loadConfig({ DATABASE_URL: url, MIGRATE_ON_START: 'true', BOOKING_SECRET: SECRET }),
  );
  await database.close();
}

const SECRET = 'bench-cluster-secret-that-is-long-enough-0123';
const env = {
  DATABASE_URL: url,
  BOOKING_SECRET: SECRET,
  RATE_LIMIT_MAX: '0',
  SIGNUPS_PER_ADDRESS: '0',
  LOG_LEVEL: 'warn',
  WEBHOOK_DISPATCH: 'false',
  ORDER_HOLD_SWEEP: 'false',
};

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks, USER_HZ = 100
  } catch {
    return 0;
  }
}

/** The PostgreSQL server's processes (every backend of every database). */
function postgresPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return fs.readFileSync(`/proc/${d}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    })
    .map(Number);
}

const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);

async function startBalancer(instances: Running[]): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const addresses = instances.map((i) => new URL(i.baseUrl).host);
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', 'deploy/haproxy.cfg'], {
    cwd: ROOT,
    env: {
      ...process.env,
      BOOKING_LB_BIND: `127.0.0.1:${port}`,
      BOOKING_DEPLOY_DIR: path.join(ROOT, 'deploy'),
      // With one instance, both server lines name it: still one process behind the balancer.
      BOOKING_APP1: addresses[0]!,
      BOOKING_APP2: addresses[1] ?? addresses[0]!,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const lb = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if ((await fetch(`${lb}/readyz`).catch(() => undefined))?.ok) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await new Promise((resolve) => setTimeout(resolve, 2500)); // every server line up (rise 2)
  return { url: lb, stop: () => child.kill('SIGTERM') };
}

async function post(base: string, route: string, body: unknown, key?: string) {
  const response = await fetch(`${base}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

interface Row {
  setup: string;
  scenario: string;
  requestsPerSec: number;
  p99Ms: number;
  errors: number;
  serviceCpuMsPerRequest: number;
  postgresCpuMsPerRequest: number;
}

async function measure(
  setup: string,
  scenario: string,
  job: LoadJob,
  servicePids: number[],
): Promise<Row> {
  const pgPids = postgresPids();
  const [service0, pg0] = [cpuOf(servicePids), cpuOf(pgPids)];
  const result = await runLoad(job);
  const [service1, pg1] = [cpuOf(servicePids), cpuOf(postgresPids())];
  const errors =
    result.socketErrors +
    result.timeouts +
    Object.entries(result.statuses)
      .filter(([status]) => !status.startsWith('2'))
      .reduce((sum, [, n]) => sum + n, 0);
  return {
    setup,
    scenario,
    requestsPerSec: Math.round(result.requests / result.durationSec),
    p99Ms: result.p99Ms,
    errors,
    serviceCpuMsPerRequest: +(((service1 - service0) * 1000) / result.requests).toFixed(2),
    postgresCpuMsPerRequest: +(((pg1 - pg0) * 1000) / result.requests).toFixed(2),
  };
}

if (!values['no-build']) build();
await ensureDatabase();
const rows: Row[] = [];
let round = 0;
for (const count of [1, 2]) {
  const instances = await Promise.all(Array.from({ length: count }, () => startService(env)));
  const balancer = await startBalancer(instances);
  const first = instances[0]!.baseUrl;
  const seller = await post(first, '/api/users', {
    name: 'Bench Seller',
    email: `bench.cluster.${Date.now()}.${count}@example.com`,
    password: 'bench password 1',
    roles: ['ROLE_SELLER'],
  });
  const experience = await post(
    first,
    '/api/experiences',
    {
      name: 'Bench Tour',
      price: 10,
      priceType: 'person',
      currency: 'EUR',
      duration: 60,
      schedules: [
        { type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: [900, 1400] },
      ],
    },
    seller.apiKey as string,
  );
  const key = seller.apiKey as string;
  const pids = instances.map((i) => i.pid);
  // Bookings spread over a year of departures (no seat limit): no two runs share one.
  const bodies = Array.from({ length: 730 }, (_, i) =>
    JSON.stringify({
      customerName: 'Bench Guest',
      items: [
        {
          experience: { id: experience.id },
          arrival: new Date(Date.UTC(2031 + round, 0, 1 + Math.floor(i / 2)))
            .toISOString()
            .slice(0, 10),
          arrivalTime: i % 2 === 0 ? 900 : 1400,
          quantity: 1,
        },
      ],
    }),
  );
  round++;
  const read = (base: string): LoadJob => ({
    url: base,
    connections,
    durationSec,
    method: 'GET',
    headers: { 'x-api-key': key },
    paths: [`/api/experiences/${String(experience.id)}`],
  });
  const book = (base: string): LoadJob => ({
    url: base,
    connections,
    durationSec,
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    paths: ['/api/orders'],
    bodies,
  });
  const setup = `${count} instance${count > 1 ? 's' : ''} behind HAProxy`;
  if (count === 1) {
    rows.push(await measure('1 instance, direct', 'GET one experience', read(first), pids));
    rows.push(await measure('1 instance, direct', 'POST /api/orders', book(first), pids));
  }
  rows.push(await measure(setup, 'GET one experience', read(balancer.url), pids));
  rows.push(await measure(setup, 'POST /api/orders', book(balancer.url), pids));
  balancer.stop();
  await Promise.all(instances.map((i) => i.stop()));
}

console.log(
  `\n${connections} connections, ${durationSec} s per run; CPU from /proc (service: the node processes; PostgreSQL: all its processes)\n`,
);
console.log(
  '| setup | scenario | req/s | p99 ms | errors | service CPU ms/req | PostgreSQL CPU ms/req |',
);
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows)
  console.log(
    `| ${r.setup} | ${r.scenario} | ${r.requestsPerSec} | ${r.p99Ms} | ${r.errors} | ${r.serviceCpuMsPerRequest} | ${r.postgresCpuMsPerRequest} |`,
  );
