/**
 * `GET /checkout.js` and CORS for the checkout widget: the script is served to any origin
 * with caching headers and an ETag (304 when unchanged), within its size budget; only
 * requests carrying a publishable key (and their preflights) get CORS headers, and an
 * account's X-API-KEY is never allowed cross-origin; the script says whether this service
 * sends email (the widget promises a confirmation only then).
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectProblem, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('GET /checkout.js', () => {
  it('serves the script to any origin, cached, with an ETag, within its size budget', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/checkout.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const etag = String(response.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    // The budget (docs/widget.md): 16 kB minified, 6 kB gzipped.
    expect(response.rawPayload.length).toBeLessThan(16_000);
    expect(gzipSync(response.rawPayload).length).toBeLessThan(6_000);
    const again = await t.app.inject({
      method: 'GET',
      url: '/checkout.js',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });
});

describe('what the widget is told of the service', () => {
  /** The settings the served script carries (widget/checkout.ts reads them). */
  const settingsOf = (script: string) =>
    JSON.parse(JSON.parse(/JSON\.parse\(("\{[^)]*\}")\)/.exec(script)![1]!)) as unknown;

  it('says email waits in the outbox without a mail transport, and goes out with one', async () => {
    const script = (await t.app.inject({ method: 'GET', url: '/checkout.js' })).body;
    expect(script).not.toContain('__BOOKING_CHECKOUT_SETTINGS__');
    expect(settingsOf(script)).toEqual({ mail: 'queued' });
    const withMail = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:9' });
    try {
      const sent = (await withMail.app.inject({ method: 'GET', url: '/checkout.js' })).body;
      expect(settingsOf(sent)).toEqual({ mail: 'sent' });
    } finally {
      await withMail.close();
    }
  });
});

describe('CORS', () => {
  const preflight = (headers: string) =>
    t.app.inject({
      method: 'OPTIONS',
      url: '/api/orders',
      headers: {
        origin: 'https://tours.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': headers,
      },
    });

  it('lets the widget’s requests through from any origin', async () => {
    const response = await preflight('content-type,x-publishable-key,idempotency-key');
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    const allowed = String(response.headers['access-control-allow-headers']).toLowerCase();
    expect(allowed).toContain('x-publishable-key');
    expect(allowed).not.toContain('x-api-key');
  });

  it('gives nothing cross-origin to requests without a publishable key', async () => {
    const withKey = await preflight('content-type,x-api-key');
    expect(withKey.headers['access-control-allow-origin']).toBeUndefined();
    const plain = await t.app.inject({
      method: 'GET',
      url: '/api/experiences',
      headers: { origin: 'https://tours.example' },
    });
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets the widget read its refusals: a wrong key, a key over its limit', async () => {
    const limited = await createTestApp({ CHECKOUT_RATE_PER_ADDRESS: '1' });
    try {
      const send = (key: string) =>
        limited.app.inject({
          method: 'GET',
          url: '/api/experiences',
          headers: { origin: 'https://tours.example', 'x-publishable-key': key },
        });
      const wrong = await send('pk_' + 'x'.repeat(32));
      expect(wrong.statusCode).toBe(401);
      expect(wrong.headers['access-control-allow-origin']).toBe('*');
      expect(String(wrong.headers.vary)).toContain('Origin');
      await send('pk_' + 'y'.repeat(32));
      const over = await send('pk_' + 'y'.repeat(32));
      expectProblem(over, 429, 'rate_limited');
      expect(over.headers['access-control-allow-origin']).toBe('*');
      expect(over.headers['access-control-expose-headers']).toContain('retry-after');
    } finally {
      await limited.close();
    }
  });

  it('refuses a widget preflight without Origin or its method in the error format', async () => {
    for (const headers of [
      { 'access-control-request-method': 'POST' },
      { origin: 'https://tours.example' },
    ]) {
      const response = await t.app.inject({
        method: 'OPTIONS',
        url: '/api/orders',
        headers: { ...headers, 'access-control-request-headers': 'x-publishable-key' },
      });
      const problem = expectProblem(response, 400, 'validation_failed');
      expect(problem.errors?.[0]?.in).toBe('header');
      expect(response.headers['access-control-allow-methods']).toBeUndefined();
    }
  });
});
