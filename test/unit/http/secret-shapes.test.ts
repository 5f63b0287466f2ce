/**
 * Credential-shaped text (src/http/secret-shapes.ts) and the logged URL (src/http/logging.ts):
 * every shape of secret is hidden wherever it sits, and what is not a secret stays readable.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../../src/http/logging.js';
import { holdsSecret, redactSecrets } from '../../../src/http/secret-shapes.js';
import { generateApiKey } from '../../../src/security/api-keys.js';
import { newSecret } from '../../../src/modules/hooks/hook-secrets.js';
import { newPublishableKey } from '../../../src/modules/checkout/publishable-keys.service.js';

describe('redactSecrets', () => {
  it.each([
    ['an API key', generateApiKey()],
    ['an older base64url API key', randomBytes(32).toString('base64url')],
    ['a publishable key', newPublishableKey()],
    ['an older publishable key', `pk_${randomBytes(24).toString('base64url')}`],
    ['a webhook secret', newSecret()],
    ['a webhook secret, percent-encoded', encodeURIComponent(newSecret())],
    ['a session id (hex)', randomBytes(32).toString('hex')],
    ['a bearer token', `Bearer ${randomBytes(20).toString('base64url')}`],
    ['Basic credentials', `Basic ${Buffer.from('a@b.example:pw').toString('base64')}`],
    ['Basic credentials in a query', `basic%20${Buffer.from('a@b.example:pw').toString('base64')}`],
  ])('hides %s', (_, secret) => {
    const token = secret.replace(/^(bearer|basic)(\s|%20)/i, '');
    for (const text of [secret, `/api/x/${secret}`, `?a=1&t=${secret}&b=2`, `id-${secret}.x`]) {
      const hidden = redactSecrets(text);
      expect(hidden, text).toContain('[redacted]');
      expect(hidden, text).not.toContain(token);
    }
  });

  it('hides any API key or publishable key, letters and digits only or not', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const key = fc
      .array(fc.constantFrom(...alphabet), { minLength: 43, maxLength: 43 })
      .map((c) => c.join(''));
    fc.assert(
      fc.property(key, (k) => {
        expect(holdsSecret(`/api/users/me?x=${k}`), k).toBe(true);
        expect(holdsSecret(`pk_${k.slice(0, 32)}`), k).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    '/api/orders/6b07e7a4f2173b19fe246d2e/items',
    '/api/orders?arrival[gte]=2030-06-01T09:00:00&limit=20',
    '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
    '/api/experiences?name=harbour-kayak-tour-in-the-morning-with-a-guide',
    'pk_nope',
    'plan=basic',
    'a.customer+tag@example.com',
  ])('keeps %s', (text) => {
    expect(redactSecrets(text)).toBe(text);
  });
});

describe('redactUrl', () => {
  it('hides an apiKey parameter whose name carries the key, and keys under any name', () => {
    const key = generateApiKey();
    for (const url of [
      `/api/users/me?apikey%3D${key}`,
      `/api/users/me?apiKey%3D${key}=1`,
      `/api/users/me?apiKey=short`,
      `/api/users/me?token=${key}`,
      `/api/users/${key}`,
    ]) {
      expect(redactUrl(url), url).not.toContain(key);
      expect(redactUrl(url), url).not.toContain('short');
    }
    expect(redactUrl('/api/users/me?apiKey=short&limit=2')).toBe(
      '/api/users/me?apiKey=[redacted]&limit=2',
    );
  });

  it("hides the values of filters that are people's data, and keeps the rest", () => {
    expect(redactUrl('/api/sellers/a/guides?email=jane.private%40example.com&limit=5', false)).toBe(
      '/api/sellers/a/guides?email=[redacted]&limit=5',
    );
    expect(
      redactUrl(
        '/api/orders?customerEmail[contains]=jane&customerName%5BstartsWith%5D=Ja&search=Jane+Doe&status=200&sort=-createdAt',
        false,
      ),
    ).toBe(
      '/api/orders?customerEmail[contains]=[redacted]&customerName%5BstartsWith%5D=[redacted]&search=[redacted]&status=200&sort=-createdAt',
    );
    expect(redactUrl('/api/guides?PHONE=%2B33612345678&name=Harbour&apiKey=k', true)).toBe(
      '/api/guides?PHONE=[redacted]&name=Harbour&apiKey=[redacted]',
    );
    // Names that only begin like one are not it; a path is not a filter.
    expect(redactUrl('/api/experiences?nameless=1&emails=2', false)).toBe(
      '/api/experiences?nameless=1&emails=2',
    );
    expect(redactUrl('/api/search/email', false)).toBe('/api/search/email');
  });
});
