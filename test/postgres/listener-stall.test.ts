/**
 * The API-key cache's listening connection stalling without a word (a NAT or firewall that
 * forgot the idle flow, a peer that hangs): neither 'error' nor 'end' comes, so only an echo
 * left unanswered tells (db/database.ts). The connection is then taken for lost: the cache
 * is bypassed at once instead of every request with a cached key waiting 2 s for a barrier
 * that never comes back (modules/users/caller-cache.ts), and it reconnects once the route
 * is back. The listener goes through a TCP proxy the test stalls; the pool does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { createCallerCache, type CallerCache } from '../../src/modules/users/caller-cache.js';
import { createTestDatabaseUrl } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

let proxy: TcpProxy;
let database: Database;
let cache: CallerCache;
let drop: () => Promise<void>;
beforeAll(async () => {
  const created = await createTestDatabaseUrl();
  drop = () => created.drop();
  const direct = new URL(created.url);
  proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  const proxied = new URL(created.url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  database = await openDatabase({
    kind: 'postgres',
    url: proxied.toString(),
    poolSize: 1,
    listenerTimeoutMs: 500,
  });
  cache = await createCallerCache(database, { staleMs: 100 });
});
afterAll(async () => {
  await cache.close();
  await database.close();
  await proxy.close();
  await drop();
});

const caller = { id: 'u1' } as unknown as Parameters<CallerCache['put']>[1];

/** A request's lookup of `key`, as the authentication does it, and how long it took. */
async function lookup(key: string): Promise<{ hit: boolean; ms: number }> {
  const started = performance.now();
  const value = cache.peek(key) ?? (await cache.get(key));
  return { hit: value !== undefined, ms: performance.now() - started };
}

describe('a listening connection that stalls', () => {
  it('is taken for lost, the cache bypassed without waiting, and listens again once it can', async () => {
    await eventually(async () => expect(cache.listening).toBe(true));
    cache.put('k', caller, cache.generation());
    expect((await lookup('k')).hit).toBe(true);

    proxy.stall();
    // Requests go on; their barriers go unanswered, and the connection is given up.
    await eventually(async () => {
      await lookup('k');
      expect(cache.listening).toBe(false);
    });
    // Bypassed: no request waits for a barrier (2 s each before) while it is away.
    const bypassed = await lookup('k');
    expect(bypassed.hit).toBe(false);
    expect(bypassed.ms).toBeLessThan(1000);

    proxy.unstall();
    await eventually(async () => expect(cache.listening).toBe(true), 20_000);
    cache.put('k', caller, cache.generation());
    await eventually(async () => expect((await lookup('k')).hit).toBe(true));
  });
});
