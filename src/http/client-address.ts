/**
 * What a per-address limit counts a client under: its IPv4 address, or its IPv6 /64. An IPv6
 * customer is usually handed a whole /64 (2^64 addresses): counting each address alone let
 * one client rotate its source address past every per-address limit (sign-ups, the
 * checkout's, failed sign-ins, the anonymous rate limit).
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail is two of them). */
function groupsOf(ip: string): number[] {
  const expand = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((g) => {
          if (!isIPv4(g)) return [parseInt(g, 16)];
          const [a, b, c, d] = g.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = '', tail] = ip.split('::');
  if (tail === undefined) return expand(head);
  const front = expand(head);
  const back = expand(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

export function addressKey(ip: string): string {
  const bare = ip.split('%')[0]!;
  if (!isIPv6(bare)) return ip;
  const groups = groupsOf(bare.toLowerCase());
  // An IPv4 client seen through a dual-stack socket is that IPv4 address.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
