/**
 * A cluster for the multi-instance tier: N instances of the real built server (the
 * production bundle) on one fresh PostgreSQL database, sharing BOOKING_SECRET and Redis,
 * behind HAProxy running deploy/haproxy.cfg itself. Instances can be restarted the way a
 * deploy does it (SIGTERM: drain, finish, exit; then a new process on the same port).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabaseUrl } from '../helpers/database.js';
import { buildBundle } from '../helpers/server-process.js';

export const CLUSTER_SECRET = 'cluster-secret-that-is-long-enough-0123456789';
/** How often HAProxy checks /readyz in the tier; the drain is several times longer. */
const CHECK_INTER_MS = 200;
export const DRAIN_MS = 1500;

export interface Instance {
  port: number;
  base: string;
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  output(): string;
}

export interface Cluster {
  /** `http://127.0.0.1:<port>` of the balancer. */
  lb: string;
  databaseUrl: string;
  instances: Instance[];
  /** SIGTERM instance i, wait for it to exit (its code), start a new one on its port. */
  restart(i: number): Promise<number | null>;
  /** Resolves once the balancer answers /readyz with 200. */
  ready(): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `check` (a throw means "not yet"); `what` is read only to report a time-out. */
async function waitFor(
  check: () => Promise<boolean>,
  what: () => string,
  ms = 30_000,
): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what()}`);
}

const isReady = async (base: string) => (await fetch(`${base}/readyz`)).status === 200;

export async function startCluster(
  options: { instances?: number; env?: Record<string, string> } = {},
): Promise<Cluster> {
  const count = options.instances ?? 2;
  const database = await createTestDatabaseUrl();
  const built = await buildBundle();
  const ports = await Promise.all(Array.from({ length: count + 1 }, () => freePort()));
  const lbPort = ports.pop()!;
  const env = {
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: '5',
    BOOKING_SECRET: CLUSTER_SECRET,
    BOOKING_ENV: 'sandbox',
    REDIS_URL: 'redis://127.0.0.1:6379',
    // A loaded machine can take longer than the 50 ms default to answer a healthy Redis,
    // which opens the breaker and counts per instance: the shared-limit test would read
    // that as not sharing (test/http/redis-outage.test.ts waits as long, for the same reason).
    REDIS_TIMEOUT_MS: '500',
    SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    WEBHOOK_POLL_MS: '50',
    ORDER_HOLD_SWEEP: 'false',
    LOG_LEVEL: 'warn',
    // Every suite signs up its accounts from this one address, and the count lives in the
    // shared Redis for an hour, across suites and runs.
    SIGNUPS_PER_ADDRESS: '0',
    ...options.env,
  };
  // Started on a known port (HAProxy's configuration names it), ready when /readyz says so.
  const startOne = async (port: number): Promise<Instance> => {
    const child = spawn(process.execPath, [built.bundle], {
      env: { ...process.env, ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const base = `http://127.0.0.1:${port}`;
    await waitFor(
      () => isReady(base),
      () => `instance on ${port} (exit code ${child.exitCode}): ${output}`,
    );
    return { port, base, child, exited, output: () => output };
  };
  const instances = await Promise.all(ports.map(startOne));

  const haproxyLog: string[] = [];
  const haproxy: ChildProcess = spawn('haproxy', ['-db', '-f', 'deploy/haproxy.cfg'], {
    env: {
      ...process.env,
      BOOKING_LB_BIND: `127.0.0.1:${lbPort}`,
      BOOKING_CHECK_INTER: `${CHECK_INTER_MS}ms`,
      BOOKING_DEPLOY_DIR: path.resolve('deploy'),
      ...Object.fromEntries(
        instances.map((i, n) => [`BOOKING_APP${n + 1}`, `127.0.0.1:${i.port}`]),
      ),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  haproxy.stdout!.on('data', (c: Buffer) => haproxyLog.push(c.toString()));
  haproxy.stderr!.on('data', (c: Buffer) => haproxyLog.push(c.toString()));
  const lb = `http://127.0.0.1:${lbPort}`;

  const cluster: Cluster = {
    lb,
    databaseUrl: database.url,
    instances,
    ready: () =>
      waitFor(
        () => isReady(lb),
        () => `the balancer: ${haproxyLog.join('')}`,
      ),
    async restart(i) {
      const old = instances[i]!;
      old.child.kill('SIGTERM');
      const code = await old.exited;
      instances[i] = await startOne(old.port);
      await waitFor(
        () => isReady(instances[i]!.base),
        () => `instance ${i} ready`,
      );
      // The balancer marks it up after `rise` (2) good checks.
      await sleep(CHECK_INTER_MS * 4);
      return code;
    },
    async stop() {
      haproxy.kill('SIGTERM');
      for (const instance of instances) instance.child.kill('SIGTERM');
      await Promise.all(instances.map((i) => i.exited));
      built.remove();
      await database.drop();
    },
  };
  await cluster.ready();
  // Both instances up in the balancer (rise 2) before the first test.
  await sleep(CHECK_INTER_MS * 4);
  return cluster;
}
