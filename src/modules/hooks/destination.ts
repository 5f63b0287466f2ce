/**
 * Where webhooks may go. In production a hook URL must be https and every address its host
 * resolves to must be public unicast: never loopback, private, link-local (cloud metadata
 * lives at 169.254.169.254), carrier-grade NAT, multicast or reserved. The check runs when
 * the hook is created and again as each delivery connects (the resolver below is the one the
 * socket uses, and the sender checks an address literal itself), so a name that resolves
 * elsewhere later (DNS rebinding) is caught too. IPv6 forms that wrap an IPv4 address
 * (mapped, compatible, NAT64, 6to4, Teredo, ISATAP) are judged by the address they wrap.
 * The sandbox allows http and any address, for local receivers and tests.
 */
import type { LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import type { BookingEnv } from '../../config.js';
import { caresResolve, sharedLookups } from './host-lookups.js';

export class DestinationError extends Error {
  override name = 'DestinationError';
}

/** Whether an address is one a production webhook may reach. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  const carried = carriedIPv4(v6);
  if (carried === 'refused') return false;
  const range = v6.range();
  return (
    (range === 'unicast' || CARRIER_RANGES.has(range)) &&
    carried.every((v4) => v4.range() === 'unicast')
  );
}

/** Ranges that are nothing but a wrapping of the IPv4 address they carry. */
const CARRIER_RANGES = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052', '6to4', 'teredo']);
const COMPATIBLE = ipaddr.parseCIDR('::/96');
const NAT64_LOCAL = ipaddr.parseCIDR('64:ff9b:1::/48');

/**
 * The IPv4 addresses an IPv6 address leads to: a kernel, a NAT64 gateway or a 6to4, Teredo
 * or ISATAP relay unwraps them and connects there, so a private one inside a public-looking
 * IPv6 address is an SSRF all the same. `refused` for the local-use NAT64 prefix (RFC 8215),
 * which is never globally reachable and whose layout only its operator knows.
 */
function carriedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4[] | 'refused' {
  const p = v6.parts;
  const v4 = (high: number, low: number) =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const last = v4(p[6]!, p[7]!);
  if (v6.match(NAT64_LOCAL)) return 'refused';
  const carried: ipaddr.IPv4[] = [];
  // IPv4-compatible (::a.b.c.d), IPv4-mapped, IPv4-translated and NAT64 (64:ff9b::/96).
  if (v6.match(COMPATIBLE) || ['ipv4Mapped', 'rfc6145', 'rfc6052'].includes(v6.range()))
    carried.push(last);
  // 6to4: 2002:AABB:CCDD::/48 is the site behind a.b.c.d.
  if (v6.range() === '6to4') carried.push(v4(p[1]!, p[2]!));
  // Teredo: the server's address, then the client's NAT address with its bits inverted.
  if (v6.range() === 'teredo') carried.push(v4(p[2]!, p[3]!), v4(~p[6]! & 0xffff, ~p[7]! & 0xffff));
  // ISATAP: any prefix with the interface id 0:5efe:a.b.c.d (0200:5efe with the u bit).
  if ((p[4]! & 0xfcff) === 0 && p[5] === 0x5efe) carried.push(last);
  return carried;
}

/** The URL's problems for a hook in `env`, as sentences; none when it may be used. */
export function urlProblems(raw: string, env: BookingEnv): string[] {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return ['is not a URL'];
  }
  const problems: string[] = [];
  const allowed = env === 'sandbox' ? ['https:', 'http:'] : ['https:'];
  if (!allowed.includes(url.protocol)) problems.push(`must use ${allowed.join(' or ')}`);
  if (url.username || url.password) problems.push('must not carry credentials');
  if (url.hash) problems.push('must not have a fragment');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (env !== 'sandbox' && ipaddr.isValid(host) && !isPublicAddress(host)) {
    problems.push('must not point at a private, loopback or link-local address');
  }
  if (env !== 'sandbox' && !ipaddr.isValid(host) && !host.includes('.')) {
    problems.push('must name a public host');
  }
  return problems;
}

/**
 * Why a delivery may not connect to the URL's host, when that host is an address literal
 * that is not public (production only). Node connects to a literal without asking the
 * resolver, so `guardedLookup` never sees it: a hook stored before a rule refused its
 * address is stopped here.
 */
export function literalRefusal(url: URL, env: BookingEnv): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (env === 'sandbox' || !ipaddr.isValid(host) || isPublicAddress(host)) return undefined;
  return `${host} is not a public address`;
}

/**
 * Every address of a name, through c-ares, answered within 5 s; one lookup per name at a
 * time, shared by its callers (host-lookups.ts says why not the system resolver).
 */
const lookupAll = sharedLookups(caresResolve({ deadlineMs: 5000 }));

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http.request that refuses non-public addresses in production: the socket
 * connects only to an address that passed the check, so nothing resolved in between counts.
 */
export function guardedLookup(env: BookingEnv) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    const { all, family } = options as { all?: boolean; family?: number };
    const answer = (addresses: LookupAddress[]) => {
      // http.request asks for one family when the URL or the agent names one.
      const usable =
        family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
      if (usable.length === 0) {
        const error: NodeJS.ErrnoException = new Error(`${hostname} has no IPv${family} address`);
        error.code = 'ENOTFOUND';
        return callback(error, []);
      }
      const allowed = env === 'sandbox' ? usable : usable.filter((a) => isPublicAddress(a.address));
      if (allowed.length === 0) {
        return callback(new DestinationError(`${hostname} resolves to no public address`), []);
      }
      if (all) return callback(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    };
    lookupAll(hostname).then(answer, (error: NodeJS.ErrnoException) => callback(error, []));
  };
}

/** At creation: the host must resolve, and (in production) only to public addresses. */
export async function checkResolves(raw: string, env: BookingEnv): Promise<string | undefined> {
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) return undefined;
  const lookup = guardedLookup(env);
  return new Promise((resolve) => {
    lookup(host, { all: true }, (error) =>
      resolve(
        error
          ? error instanceof DestinationError
            ? error.message
            : `${host} does not resolve`
          : undefined,
      ),
    );
  });
}
