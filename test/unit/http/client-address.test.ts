/**
 * The key of a client for per-address limits (src/http/client-address.ts): IPv4 as it is, an
 * IPv4 client on a dual-stack socket as its IPv4 address, and IPv6 by its /64, however the
 * address is written.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressKey } from '../../../src/http/client-address.js';

describe('addressKey', () => {
  it('keeps IPv4, unwraps IPv4-mapped IPv6, and folds IPv6 to its /64', () => {
    expect(addressKey('192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('::FFFF:c000:0207')).toBe('192.0.2.7');
    for (const ip of [
      '2001:db8:1:2:3:4:5:6',
      '2001:db8:1:2::1',
      '2001:DB8:0001:0002:ffff::',
      '2001:db8:1:2::192.0.2.1',
      'fe80::1%eth0'.replace('fe80::', '2001:db8:1:2::'),
    ]) {
      expect(addressKey(ip), ip).toBe('2001:db8:1:2::/64');
    }
    expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('gives every address of one /64 one key, and addresses of two /64s two', () => {
    const group = fc.integer({ min: 0, max: 0xffff }).map((g) => g.toString(16));
    const groups = (n: number) => fc.array(group, { minLength: n, maxLength: n });
    fc.assert(
      fc.property(groups(4), groups(4), groups(4), (prefix, a, b) => {
        const one = addressKey([...prefix, ...a].join(':'));
        expect(addressKey([...prefix, ...b].join(':'))).toBe(one);
        const other = [...prefix];
        other[3] = ((parseInt(other[3]!, 16) + 1) % 0x10000).toString(16);
        expect(addressKey([...other, ...a].join(':'))).not.toBe(one);
      }),
    );
  });
});
