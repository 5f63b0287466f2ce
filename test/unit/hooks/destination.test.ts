/**
 * Where webhooks may go (src/modules/hooks/destination.ts): the address ranges refused in
 * production, URL rules per environment, and the resolver a delivery connects through.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkResolves,
  guardedLookup,
  isPublicAddress,
  urlProblems,
} from '../../../src/modules/hooks/destination.js';
import { webhookSender } from '../../../src/modules/hooks/webhook-sender.js';
import { startTrap } from '../../helpers/webhook-receiver.js';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254', // cloud metadata
    '100.64.0.1', // carrier-grade NAT
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'accepts %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  // IPv6 forms that carry an IPv4 address reach that address (the kernel, a NAT64 gateway,
  // a 6to4, Teredo or ISATAP relay unwraps it): judged by the IPv4 address they carry.
  it.each([
    ['::7f00:1', 'IPv4-compatible 127.0.0.1'],
    ['::127.0.0.1', 'IPv4-compatible 127.0.0.1, dotted'],
    ['::a9fe:a9fe', 'IPv4-compatible 169.254.169.254'],
    ['::a00:1', 'IPv4-compatible 10.0.0.1'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped 169.254.169.254'],
    ['::ffff:0:7f00:1', 'IPv4-translated (RFC 6145) 127.0.0.1'],
    ['64:ff9b::7f00:1', 'NAT64 127.0.0.1'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 169.254.169.254'],
    ['64:ff9b::192.168.1.1', 'NAT64 192.168.1.1'],
    ['64:ff9b:1::808:808', 'local-use NAT64 (RFC 8215): not globally reachable'],
    ['64:ff9b:1:7f00:1::', 'local-use NAT64, /48 layout'],
    ['2002:7f00:1::1', '6to4 127.0.0.1'],
    ['2002:a9fe:a9fe::1', '6to4 169.254.169.254'],
    ['2002:c0a8:101::1', '6to4 192.168.1.1'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo client 127.0.0.1'],
    ['2001:0:4136:e378:8000:63bf:5601:5601', 'Teredo client 169.254.169.254'],
    ['2001:0:7f00:1:8000:63bf:f7f7:f7f7', 'Teredo server 127.0.0.1'],
    ['2606:4700::5efe:7f00:1', 'ISATAP 127.0.0.1'],
    ['2606:4700::200:5efe:a9fe:a9fe', 'ISATAP (u bit) 169.254.169.254'],
    ['2606:4700::5efe:c0a8:101', 'ISATAP 192.168.1.1'],
    ['fe80::5efe:808:808', 'ISATAP on a link-local prefix'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['::808:808', 'IPv4-compatible 8.8.8.8'],
    ['64:ff9b::808:808', 'NAT64 8.8.8.8 (what DNS64 makes of a public name)'],
    ['2002:808:808::1', '6to4 8.8.8.8'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'Teredo, server 65.54.227.120, client 8.8.8.8'],
    ['2606:4700::5efe:808:808', 'ISATAP 8.8.8.8 on a public prefix'],
  ])('accepts %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('judges an IPv4-compatible or NAT64 address exactly as the IPv4 address it carries', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(octet, octet, octet, octet, (a, b, c, d) => {
        const v4 = `${a}.${b}.${c}.${d}`;
        const expected = isPublicAddress(v4);
        expect(isPublicAddress(`::${v4}`), `::${v4}`).toBe(expected);
        expect(isPublicAddress(`::ffff:${v4}`), `::ffff:${v4}`).toBe(expected);
        expect(isPublicAddress(`64:ff9b::${v4}`), `64:ff9b::${v4}`).toBe(expected);
      }),
    );
  });

  it('refuses every 10/8, 127/8 and 169.254/16 address', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(octet, octet, octet, (a, b, c) => {
        expect(isPublicAddress(`10.${a}.${b}.${c}`)).toBe(false);
        expect(isPublicAddress(`127.${a}.${b}.${c}`)).toBe(false);
        expect(isPublicAddress(`169.254.${a}.${b}`)).toBe(false);
      }),
    );
  });
});

describe('urlProblems', () => {
  it('in production: https only, no credentials, no private address literal', () => {
    expect(urlProblems('https://hooks.example.com/x', 'production')).toEqual([]);
    expect(urlProblems('http://hooks.example.com/x', 'production')).toEqual(['must use https:']);
    expect(urlProblems('https://a:b@hooks.example.com/', 'production')).toEqual([
      'must not carry credentials',
    ]);
    for (const url of [
      'https://127.0.0.1/',
      'https://[::1]/',
      'https://169.254.169.254/latest/meta-data',
      'https://10.1.2.3:8443/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::7f00:1]/',
      'https://[::127.0.0.1]/',
      'https://[::a9fe:a9fe]/',
      'https://[64:ff9b::a9fe:a9fe]/',
      'https://[2002:a9fe:a9fe::1]/',
    ]) {
      expect(urlProblems(url, 'production'), url).toEqual([
        'must not point at a private, loopback or link-local address',
      ]);
    }
    expect(urlProblems('https://intranet/', 'production')).toEqual(['must name a public host']);
  });

  it('in the sandbox: http and loopback allowed', () => {
    expect(urlProblems('http://127.0.0.1:9999/hook', 'sandbox')).toEqual([]);
    expect(urlProblems('ftp://127.0.0.1/', 'sandbox')).toEqual(['must use https: or http:']);
  });
});

describe('resolving', () => {
  it('a name resolving only to loopback is refused in production, at creation and at connection', async () => {
    expect(await checkResolves('https://localhost/hook', 'production')).toMatch(
      /resolves to no public address/,
    );
    expect(await checkResolves('https://localhost/hook', 'sandbox')).toBeUndefined();
    const error = await new Promise<Error | null>((resolve) =>
      guardedLookup('production')('localhost', {}, (e) => resolve(e)),
    );
    expect(error?.message).toMatch(/no public address/);

    // The sender connects through the same resolver: nothing leaves for a loopback name.
    const send = webhookSender('production', 1000);
    const outcome = await send({ url: 'https://localhost:1/hook', headers: {}, body: '{}' });
    expect(outcome).toMatchObject({ ok: false, statusCode: null });
    expect(outcome.error).toMatch(/no public address/);
  });

  it('an address literal is checked as the delivery connects too (no lookup runs for one)', async () => {
    // A hook stored before a rule refused its address: nothing may reach the address.
    const trap = await startTrap();
    try {
      const send = webhookSender('production', 1000);
      for (const host of ['[::ffff:127.0.0.1]', '127.0.0.1', '[::7f00:1]', '[::a9fe:a9fe]']) {
        const outcome = await send({
          url: `https://${host}:${trap.port}/hook`,
          headers: {},
          body: '{}',
        });
        expect(outcome, host).toMatchObject({ ok: false, statusCode: null });
        expect(outcome.error, host).toMatch(/is not a public address/);
      }
      expect(trap.connections()).toBe(0);
      // Every ending is an outcome, a URL that does not parse included.
      expect(await send({ url: 'not a url', headers: {}, body: '{}' })).toMatchObject({
        ok: false,
        error: 'invalid URL',
      });
    } finally {
      await trap.close();
    }
  });

  it('a name that does not resolve is refused at creation', async () => {
    expect(await checkResolves('https://no-such-host.invalid/hook', 'production')).toMatch(
      /does not resolve/,
    );
  });
});
