/**
 * Rate limits: per credential (OCTo's by the Bearer credential it authenticates with), 429
 * in problem+json with the RateLimit headers, health checks exempt; and every limiter's 429
 * names its API version.
 */
import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_VERSION, QUERY_OPERATORS } from '../../src/versions/index.js';
import { as, createTestApp, expectProblem, signUp, type TestApp } from '../helpers/app.js';
import { createAffiliate } from '../helpers/octo.js';

/** A dated version older than the latest, echoed as asked. */
const OLD = QUERY_OPERATORS;

describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' });
  });
  afterAll(async () => t.close());

  it('limits each credential separately and answers 429 in problem+json with headers', async () => {
    const ann = await signUp(t.app);
    const bob = await signUp(t.app);
    const responses = [];
    for (let i = 0; i < 4; i++) {
      responses.push(await as(t.app, ann, { method: 'GET', url: '/api/users/me' }));
    }
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
    const last = responses[3]!;
    expectProblem(last, 429, 'rate_limited');
    expect(last.headers['ratelimit-limit']).toBe('3');
    expect(last.headers['ratelimit-remaining']).toBe('0');
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    // Another credential has its own budget.
    expect((await as(t.app, bob, { method: 'GET', url: '/api/users/me' })).statusCode).toBe(200);
  });

  it('limits an OCTo credential by its Authorization, whatever X-API-KEY comes with it', async () => {
    const own = await createTestApp({ RATE_LIMIT_MAX: '4', RATE_LIMIT_WINDOW_MS: '60000' });
    try {
      const seller = await signUp(own.app, { roles: ['ROLE_SELLER'] });
      const reseller = await createAffiliate(own.app, seller);
      const codes = [];
      for (let i = 0; i < 6; i++) {
        const response = await own.app.inject({
          method: 'GET',
          url: '/octo/supplier',
          headers: {
            authorization: `Bearer ${reseller.apiKey}`,
            // A fresh key each time was a fresh bucket each time.
            'x-api-key': randomBytes(8).toString('hex'),
          },
        });
        codes.push(response.statusCode);
      }
      expect(codes).toEqual([200, 200, 200, 200, 429, 429]);
    } finally {
      await own.close();
    }
  });

  it('behind a trusted balancer, counts each client it names; no one else may name one', async () => {
    const behind = await createTestApp({ RATE_LIMIT_MAX: '2', TRUST_PROXY: '127.0.0.1' });
    try {
      const via = (peer: string, client: string) =>
        behind.app.inject({
          method: 'GET',
          url: '/api/experiences',
          remoteAddress: peer,
          headers: { 'x-forwarded-for': client },
        });
      const codes = async (peer: string, client: () => string, n: number) => {
        const all = [];
        for (let i = 0; i < n; i++) all.push((await via(peer, client())).statusCode);
        return all;
      };
      // Through the balancer: each client its own budget.
      expect(await codes('127.0.0.1', () => '203.0.113.7', 3)).toEqual([200, 200, 429]);
      expect(await codes('127.0.0.1', () => '198.51.100.9', 2)).toEqual([200, 200]);
      // A peer that is not the balancer cannot pick a fresh address per request.
      let n = 0;
      expect(await codes('192.0.2.44', () => `10.9.8.${++n}`, 3)).toEqual([200, 200, 429]);
    } finally {
      await behind.close();
    }
    // Without TRUST_PROXY the balancer is the client: everyone behind it shares one budget.
    const direct = await createTestApp({ RATE_LIMIT_MAX: '2' });
    try {
      const statuses = [];
      for (const client of ['203.0.113.7', '198.51.100.9', '192.0.2.1'])
        statuses.push(
          (
            await direct.app.inject({
              method: 'GET',
              url: '/api/experiences',
              headers: { 'x-forwarded-for': client },
            })
          ).statusCode,
        );
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await direct.close();
    }
  });

  it('limits sign-ups per client address, whatever key each one carries', async () => {
    const limited = await createTestApp({ SIGNUPS_PER_ADDRESS: '3' });
    try {
      let key = '';
      const signUpFrom = (remoteAddress: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/users',
          remoteAddress,
          // Each with the key the last one got: a fresh bucket of the general limit each time.
          headers: key ? { 'x-api-key': key } : {},
          payload: {
            name: 'Stream',
            email: `stream.${randomBytes(6).toString('hex')}@example.com`,
            password: 'long enough',
          },
        });
      for (let i = 0; i < 3; i++) {
        const made = await signUpFrom('198.51.100.60');
        expect(made.statusCode, made.body).toBe(201);
        key = made.json().apiKey;
      }
      const refused = await signUpFrom('198.51.100.60');
      expectProblem(refused, 429, 'rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
      expect((await signUpFrom('198.51.100.61')).statusCode).toBe(201);
      // An IPv6 client is its /64: rotating addresses within it is one client.
      for (let i = 1; i <= 3; i++)
        expect((await signUpFrom(`2001:db8:5:6::${i}`)).statusCode).toBe(201);
      expectProblem(await signUpFrom('2001:db8:5:6:ffff::9'), 429, 'rate_limited');
      expect((await signUpFrom('2001:db8:5:7::1')).statusCode).toBe(201);
      // Nothing else is held by it: the accounts made still work from that address.
      const me = await limited.app.inject({
        method: 'GET',
        url: '/api/users/me',
        remoteAddress: '198.51.100.60',
        headers: { 'x-api-key': key },
      });
      expect(me.statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('does not limit health checks', async () => {
    for (let i = 0; i < 6; i++) {
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    }
  });
});

/**
 * Every answer names its API version (X-API-VERSION), a throttled one too: a 429 from each
 * limiter echoes the version asked for, or the latest when none (or a bad one) was sent.
 * The general limit and the checkout limit refuse before the version hooks run.
 */
describe('a throttled answer names its version', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      BOOKING_ENV: 'sandbox',
      RATE_LIMIT_MAX: '3',
      RATE_LIMIT_WINDOW_MS: '60000',
      CHECKOUT_RATE_PER_ADDRESS: '1',
      AUTH_FAILURES_PER_ADDRESS: '2',
    });
  });
  afterAll(async () => t.close());

  /** Sends until the first 429 (at most `tries`), which it returns. */
  async function untilThrottled(send: () => Promise<LightMyRequestResponse>, tries = 10) {
    for (let i = 0; i < tries; i++) {
      const response = await send();
      if (response.statusCode === 429) return response;
    }
    throw new Error(`no 429 in ${tries} requests`);
  }

  /** A 429 of the limiter whose detail matches `limiter`, naming `version`. */
  const expectVersion = (response: LightMyRequestResponse, limiter: RegExp, version: string) => {
    expectProblem(response, 429, 'rate_limited');
    expect(response.json<{ detail: string }>().detail).toMatch(limiter);
    expect(response.headers['x-api-version']).toBe(version);
  };
  const GENERAL = /^Rate limit of 3 requests/;

  it('from the general rate limit', async () => {
    const ann = await signUp(t.app);
    const send = (headers: Record<string, string>) => () =>
      as(t.app, ann, { method: 'GET', url: '/api/users/me', headers });
    expectVersion(await untilThrottled(send({ 'x-api-version': OLD })), GENERAL, OLD);
    expectVersion(await untilThrottled(send({})), GENERAL, LATEST_VERSION);
    // A bad version is refused (400) only after the limits: a throttled one is a 429.
    const bad = await untilThrottled(send({ 'x-api-version': 'yesterday' }));
    expectVersion(bad, GENERAL, LATEST_VERSION);
  });

  it('from the checkout limit of a publishable key', async () => {
    const seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
    const made = await as(t.app, seller, {
      method: 'POST',
      url: `/api/sellers/${seller.id}/publishable-keys`,
      payload: {},
    });
    const send = () =>
      t.app.inject({
        method: 'GET',
        url: '/api/experiences',
        remoteAddress: '192.0.2.7',
        headers: { 'x-publishable-key': made.json().key, 'x-api-version': OLD },
      });
    expectVersion(await untilThrottled(send), /with this publishable key/, OLD);
  });

  it('from the throttle of failed authentication', async () => {
    const send = () =>
      t.app.inject({
        method: 'GET',
        url: '/api/users/me',
        remoteAddress: '192.0.2.8',
        headers: { 'x-api-key': randomBytes(24).toString('base64url'), 'x-api-version': OLD },
      });
    expectVersion(await untilThrottled(send), /failed sign-ins/, OLD);
  });
});
