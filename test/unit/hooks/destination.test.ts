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

  it('a name that does not resolve is refused at creation', async () => {
    expect(await checkResolves('https://no-such-host.invalid/hook', 'production')).toMatch(
      /does not resolve/,
    );
  });
});
