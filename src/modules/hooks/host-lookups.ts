/**
 * Host lookups for webhooks (destination.ts asks them, for a hook's creation and for every
 * delivery). Not `dns.lookup`: that runs getaddrinfo on libuv's thread pool (four threads,
 * shared with password hashing), and a name server that never answers holds a thread for
 * the system resolver's whole timeout, with no way to give it back. Running at most two such
 * lookups for the whole process kept sign-ins safe, but then two stuck lookups of one tenant
 * made every other tenant's lookups wait their turn and fail (hook creations refused,
 * deliveries recorded as failed: review-octo finding 1).
 *
 * So a name is resolved by c-ares (`dns.promises.Resolver`): on the event loop, with no
 * thread, with its own per-try timeout and tries, and cancelled at the deadline. A stuck
 * lookup costs only the caller waiting for it: nothing queues behind it. Callers asking for
 * a name already being looked up share that lookup (a silent name that eight deliveries
 * wait on costs one set of queries). The bound on how many run is the callers' own: the
 * delivery caps (per owner, per host, in all) and the hooks API's rate limit.
 *
 * DNS only: /etc/hosts and nsswitch are not read (c-ares' queries), except that `localhost`
 * and its subdomains are loopback, as RFC 6761 asks and as getaddrinfo answers them.
 */
import type { LookupAddress } from 'node:dns';
import { Resolver } from 'node:dns/promises';

/** Every address of a name, IPv4 first; rejects with an errno-style error. */
export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

const LOOPBACK: readonly LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

const isLocalhost = (hostname: string) => /(^|\.)localhost\.?$/i.test(hostname);

function lookupError(hostname: string, code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code, hostname });
}

/**
 * A name's A and AAAA records through c-ares, answered within `deadlineMs`: at the deadline
 * its queries are cancelled and whatever arrived is the answer (a timeout when nothing did).
 * `servers` replaces the system's name servers (tests).
 */
export function caresResolve(options: { deadlineMs: number; servers?: string[] }): ResolveAll {
  const { deadlineMs, servers } = options;
  return async (hostname) => {
    if (isLocalhost(hostname)) return LOOPBACK.map((a) => ({ ...a }));
    // One resolver per lookup: `cancel` ends every query of a resolver, so a shared one
    // would cancel the lookups of other names too. Two tries, each within half the deadline.
    const resolver = new Resolver({ timeout: Math.ceil(deadlineMs / 2), tries: 2 });
    if (servers) resolver.setServers(servers);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      resolver.cancel();
    }, deadlineMs);
    timer.unref();
    const [v4, v6] = await Promise.allSettled([
      resolver.resolve4(hostname),
      resolver.resolve6(hostname),
    ]);
    clearTimeout(timer);
    const addresses: LookupAddress[] = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (addresses.length > 0) return addresses;
    const codes = [v4, v6].flatMap((r) =>
      r.status === 'rejected' ? [(r.reason as NodeJS.ErrnoException).code ?? 'EUNKNOWN'] : [],
    );
    if (timedOut || codes.includes('ETIMEOUT') || codes.includes('ECANCELLED')) {
      throw lookupError(hostname, 'ETIMEOUT', `looking up ${hostname} timed out`);
    }
    // Both families empty (ENODATA) is a name with no address: as getaddrinfo, not found.
    const code = codes.find((c) => c !== 'ENODATA') ?? 'ENOTFOUND';
    throw lookupError(hostname, code, `${hostname} does not resolve (${code})`);
  };
}

/** `resolve`, with the callers asking for a name already being looked up sharing it. */
export function sharedLookups(resolve: ResolveAll): ResolveAll {
  const pending = new Map<string, Promise<LookupAddress[]>>();
  return (hostname) => {
    const name = hostname.toLowerCase();
    let lookup = pending.get(name);
    if (!lookup) {
      lookup = resolve(name).finally(() => pending.delete(name));
      pending.set(name, lookup);
    }
    // Each caller its own copy: a caller that reorders or trims the list changes no other's.
    return lookup.then((addresses) => addresses.map((a) => ({ ...a })));
  };
}
