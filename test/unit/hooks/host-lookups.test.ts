/**
 * Webhook host lookups (src/modules/hooks/host-lookups.ts), against a name server on a
 * loopback port: both families answered; a name server that never answers costs its own
 * lookup a timeout at the deadline and nobody else anything; callers of one name share
 * its lookup; `localhost` is loopback without asking.
 */
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caresResolve, sharedLookups } from '../../../src/modules/hooks/host-lookups.js';
import { startFakeDns, type FakeDns } from '../../helpers/fake-dns.js';

let dns: FakeDns;
beforeAll(async () => {
  dns = await startFakeDns();
  dns.answer((name, type) => {
    if (name.startsWith('silent')) return 'silent';
    if (name === 'gone.test') return 'nxdomain';
    if (name === 'v4only.test') return type === 'A' ? ['203.0.113.7'] : [];
    return type === 'A' ? ['203.0.113.1'] : ['2001:db8::1'];
  });
});
afterAll(async () => dns.close());

const settle = (lookup: Promise<LookupAddress[]>) =>
  lookup.then(
    (addresses) => ({ addresses, code: undefined, at: performance.now() }),
    (error: NodeJS.ErrnoException) => ({ addresses: [], code: error.code, at: performance.now() }),
  );

describe('caresResolve', () => {
  it('answers both families, IPv4 first; a missing name or family is told apart', async () => {
    const resolve = caresResolve({ deadlineMs: 2000, servers: [dns.server] });
    expect(await resolve('hooks.example.test')).toEqual([
      { address: '203.0.113.1', family: 4 },
      { address: '2001:db8::1', family: 6 },
    ]);
    expect(await resolve('v4only.test')).toEqual([{ address: '203.0.113.7', family: 4 }]);
    await expect(resolve('gone.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    const asked = dns.asked.length;
    expect(await resolve('api.localhost')).toEqual([
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
    expect(dns.asked.length).toBe(asked);
  });

  it('a silent name server times out its own lookups at the deadline, and only those', async () => {
    const resolve = caresResolve({ deadlineMs: 400, servers: [dns.server] });
    const started = performance.now();
    // More stuck lookups than the old process-wide limit (two), on names of their own.
    const stuck = ['silent1.test', 'silent2.test', 'silent3.test', 'silent4.test'].map((name) =>
      settle(resolve(name)),
    );
    const other = await settle(resolve('victim.test'));
    expect(other.addresses[0]?.address).toBe('203.0.113.1');
    expect(other.at - started).toBeLessThan(300);
    for (const result of await Promise.all(stuck)) {
      expect(result.code).toBe('ETIMEOUT');
      expect(result.at - started).toBeGreaterThanOrEqual(390);
      expect(result.at - started).toBeLessThan(1500);
    }
  });
});

describe('sharedLookups', () => {
  it('callers asking for a name being looked up share that lookup; the next asks again', async () => {
    const calls: string[] = [];
    let finish: (addresses: LookupAddress[]) => void = () => undefined;
    const shared = sharedLookups((name) => {
      calls.push(name);
      return new Promise((resolve) => (finish = resolve));
    });
    const first = shared('Hooks.Example.test');
    const second = shared('hooks.example.test');
    expect(calls).toEqual(['hooks.example.test']);
    finish([{ address: '203.0.113.1', family: 4 }]);
    const [a, b] = await Promise.all([first, second]);
    expect(a).toEqual(b);
    a.pop(); // each caller has its own copy
    expect(b).toHaveLength(1);
    const third = shared('hooks.example.test');
    expect(calls).toHaveLength(2);
    finish([]);
    await third;
  });
});
