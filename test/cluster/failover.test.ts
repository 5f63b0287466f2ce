/**
 * Database failover drill: PostgreSQL itself is restarted (stopped, then started again a
 * few seconds later) under a steady load through the balancer. While it is down, every
 * answer that is not 2xx/4xx is 503 with Retry-After (from an instance, or from HAProxy
 * once every instance's /readyz says so); nothing gets no answer at all. When it is back,
 * every instance recovers by itself (no restart), and every booking acknowledged before,
 * during or after is in the database.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from './cluster.js';
import { booking, call, openShop, signUp } from './http.js';
import { startLoad, storedOrders } from './load.js';

/** Debian's cluster tool, as .ci/run starts the server with. */
function pgCluster(action: 'stop' | 'start'): void {
  const version = fs.readdirSync('/etc/postgresql').sort().at(-1)!;
  const args = ['--skip-systemctl-redirect', version, 'main', action];
  execFileSync('pg_ctlcluster', action === 'stop' ? [...args, '-m', 'fast'] : args, {
    stdio: 'inherit',
  });
}

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster({ env: { RATE_LIMIT_MAX: '0' } });
}, 120_000);
afterAll(async () => {
  // Whatever happened, leave the server running for whatever comes next.
  try {
    pgCluster('start');
  } catch {
    // Already running.
  }
  await cluster?.stop();
});

describe('database failover', () => {
  it('answers 503 with Retry-After while PostgreSQL is down, recovers, loses nothing', async () => {
    const shop = await openShop(cluster.lb, null);
    const customer = await signUp(cluster.lb);
    const load = startLoad(cluster.lb, shop, customer);
    await sleep(1000);
    pgCluster('stop');
    await sleep(3000);
    pgCluster('start');
    // Every instance ready again by itself.
    const until = Date.now() + 30_000;
    for (const instance of cluster.instances) {
      while ((await call(instance.base, 'GET', '/readyz').catch(() => undefined))?.status !== 200) {
        if (Date.now() > until) throw new Error(`${instance.base} did not recover`);
        await sleep(100);
      }
    }
    await sleep(1500);
    const result = await load.stop();
    // eslint-disable-next-line no-console -- the drill reports its counts (closing notes quote them)
    console.log(
      `failover: ${result.requests} requests, ${JSON.stringify(result.tally)}, ` +
        `${result.acknowledged.length} bookings acknowledged`,
    );
    expect(result.tally['503 service_unavailable'] ?? 0).toBeGreaterThan(0);
    const unexpected = result.failures.filter((f) => f.status !== 503 || f.retryAfter === null);
    expect(unexpected).toEqual([]);
    const after = await call(cluster.lb, 'POST', '/api/orders', {
      key: customer.apiKey,
      body: booking(shop.experienceId, '2030-12-01'),
    });
    expect(after.status).toBe(201);
    expect(await storedOrders(cluster.databaseUrl, result.acknowledged)).toBe(
      result.acknowledged.length,
    );
  });
});
