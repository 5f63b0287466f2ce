/**
 * The API-key cache's listening connection stalling without a word (a NAT or firewall that
 * forgot the idle flow, a peer that hangs): neither 'error' nor 'end' comes, so only an echo
 * left unanswered tells (db/database.ts). The connection is then taken for lost: the cache
 * is bypassed at once instead of every request with a cached key waiting 2 s for a barrier
 * that never comes back (modules/users/caller-cache.ts), and it reconnects once the route
 * is back. The listener goes through a TCP proxy the test stalls; the pool does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { createCallerCache, type CallerCache } from '../../src/modules/users/caller-cache.js';
import { openProxiedDatabase } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';
import type { TcpProxy } from '../helpers/tcp-proxy.js';

let proxy: TcpProxy;
let database: Database;
let cache: CallerCache;
let close: () => Promise<void>;
beforeAll(async () => {
  const opened = await openProxiedDatabase({ poolSize: 1, listenerTimeoutMs: 500 });
  ({ proxy, database } = opened);
  close = () => opened.close();
  cache = await createCallerCache(database, { staleMs: 100 });
});
afterAll(async () => {
  await cache.close();
  await close();
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
