/**
 * Rolling restart with zero failed requests: under a steady load through the balancer, each
 * instance in turn gets SIGTERM (it drains: /readyz 503 and answers close their
 * connections while it still serves, so HAProxy takes it out; then it stops accepting,
 * finishes what is in flight and exits 0), and a new process takes its port. Every answer
 * is 2xx or 4xx, and every acknowledged booking is in the database afterwards.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from './cluster.js';
import { openShop, signUp } from './http.js';
import { startLoad, storedOrders } from './load.js';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster({ env: { RATE_LIMIT_MAX: '0' } });
}, 120_000);
afterAll(async () => cluster?.stop());

describe('rolling restart', () => {
  it('restarts every instance under load with no failed request and no lost booking', async () => {
    const shop = await openShop(cluster.lb, null);
    const customer = await signUp(cluster.lb);
    const load = startLoad(cluster.lb, shop, customer);
    await sleep(1000);
    const exitCodes: (number | null)[] = [];
    for (let i = 0; i < cluster.instances.length; i++) {
      exitCodes.push(await cluster.restart(i));
      await sleep(500);
    }
    await sleep(1000);
    const result = await load.stop();
    // eslint-disable-next-line no-console -- the drill reports its counts (closing notes quote them)
    console.log(
      `rolling restart: ${result.requests} requests, ${JSON.stringify(result.tally)}, ` +
        `${result.acknowledged.length} bookings acknowledged, exit codes ${exitCodes.join(', ')}`,
    );
    expect(result.failures).toEqual([]);
    expect(exitCodes).toEqual(cluster.instances.map(() => 0));
    expect(result.acknowledged.length).toBeGreaterThan(20);
    expect(await storedOrders(cluster.databaseUrl, result.acknowledged)).toBe(
      result.acknowledged.length,
    );
  });
});
