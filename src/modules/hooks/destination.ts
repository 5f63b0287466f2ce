/**
 * Where webhooks may go. In production a hook URL must be https and every address its host
 * resolves to must be public unicast: never loopback, private, link-local (cloud metadata
 * lives at 169.254.169.254), carrier-grade NAT, multicast or reserved. The check runs when
 * the hook is created and again as each delivery connects (the resolver below is the one the
 * socket uses), so a name that resolves elsewhere later (DNS rebinding) is caught too. The
 * sandbox allows http and any address, for local receivers and tests.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import type { BookingEnv } from '../../config.js';

export class DestinationError extends Error {
  override name = 'DestinationError';
}

/** Whether an address is one a production webhook may reach. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it carries.
  return ipaddr.process(address).range() === 'unicast';
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
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const usable =
        env === 'sandbox' ? addresses : addresses.filter((a) => isPublicAddress(a.address));
      if (usable.length === 0) {
        return callback(new DestinationError(`${hostname} resolves to no public address`), []);
      }
      if ((options as { all?: boolean }).all) return callback(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
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
