/**
 * Query strings built to cost the server: a URL of thousands of malformed escapes
 * (`?%&%&…`) sent by nobody. Whether its query names an API key is worked out once per
 * request, in one pass that decodes nothing and throws nothing (it threw a URIError per
 * part, on every answer and again on every log line); and the refusal of a malformed query
 * spends the caller's rate-limit budget like any other request. Work is counted, never
 * timed: decodeURIComponent is watched. A key sent in the query in any spelling is still
 * redacted from the logs and still makes the answer `no-store`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, expectProblem, type TestApp } from '../helpers/app.js';

/** About 15.8 KB of one-character malformed parts, under Node's 16 KB header limit. */
const MALFORMED = '%&'.repeat(7_900);

let t: TestApp;
beforeAll(async () => {
  // LOG_LEVEL info (the tests' default): each request's line names its URL.
  t = await createTestApp();
});
afterAll(async () => t.close());
afterEach(() => vi.restoreAllMocks());

/** Sends `url` anonymously; returns the answer and how often decodeURIComponent ran. */
async function get(url: string) {
  const decode = vi.spyOn(globalThis, 'decodeURIComponent');
  const response = await t.app.inject({ method: 'GET', url });
  const decodes = decode.mock.calls.length;
  decode.mockRestore();
  return { response, decodes };
}

describe('a query string of thousands of malformed escapes', () => {
  it.each(['/api/experiences', '/healthz', '/api/nowhere'])(
    'is refused on %s after a few decodes, not one per part',
    async (path) => {
      for (const parts of [MALFORMED, '%E0&'.repeat(3_900)]) {
        const { response, decodes } = await get(`${path}?${parts}`);
        expect(response.statusCode).toBe(400);
        expect(response.headers['content-type']).toContain('application/problem+json');
        // The refusal decodes the whole query once, then the parts up to the bad one.
        expect(decodes).toBeLessThan(10);
      }
    },
  );

  it('is looked at part by part in the logs only when it names a key, and then hidden', async () => {
    const before = t.logs.length;
    const { response, decodes } = await get(
      `/api/experiences?${'%&'.repeat(3_000)}api%4Bey=hidden-${'x'.repeat(8)}`,
    );
    expect(response.statusCode).toBe(400);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(decodes).toBeLessThan(10);
    const lines = t.logs.slice(before).join('\n');
    expect(lines).toContain('incoming request');
    expect(lines).not.toContain('hidden-');
  });
});

describe('a key in the query, in any spelling', () => {
  it.each(['apiKey', 'api%4Bey', '%61piKey', 'api_key', 'ap%C3%A9ikey', 'ap%C4%B0key'])(
    '%s is redacted from the logs and makes the answer no-store',
    async (name) => {
      const before = t.logs.length;
      const { response } = await get(`/api/experiences?limit=1&${name}=hidden-value&x=1`);
      expect(response.headers['cache-control']).toBe('no-store');
      const lines = t.logs.slice(before).join('\n');
      expect(lines).toContain('incoming request');
      expect(lines).not.toContain('hidden-value');
    },
  );

  it('no key: an anonymous read stays cacheable, its URL logged as sent', async () => {
    const before = t.logs.length;
    const { response } = await get('/api/experiences?limit=1&name%5BstartsWith%5D=caf%C3%A9');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).not.toBe('no-store');
    expect(t.logs.slice(before).join('\n')).toContain(
      '/api/experiences?limit=1&name%5BstartsWith%5D=caf%C3%A9',
    );
  });
});

describe('the rate limit', () => {
  it('counts refused malformed queries: the sixth is 429, and so is the next good one', async () => {
    const limited = await createTestApp({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_MS: '60000' });
    try {
      const codes = [];
      for (let i = 0; i < 6; i++) {
        const response = await limited.app.inject({ method: 'GET', url: '/api/experiences?%ZZ' });
        codes.push(response.statusCode);
      }
      expect(codes).toEqual([400, 400, 400, 400, 400, 429]);
      expectProblem(
        await limited.app.inject({ method: 'GET', url: '/api/experiences?limit=1' }),
        429,
        'rate_limited',
      );
    } finally {
      await limited.close();
    }
  });

  it('counts them by address whatever credential they carry: a fresh apiKey each is no fresh bucket', async () => {
    const limited = await createTestApp({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_MS: '60000' });
    try {
      const codes = [];
      for (let i = 0; i < 6; i++) {
        const response = await limited.app.inject({
          method: 'GET',
          url: `/api/experiences?apiKey=made-up-${i}&%ZZ`,
          headers: { 'x-api-key': `made-up-header-${i}` },
        });
        codes.push(response.statusCode);
      }
      expect(codes).toEqual([400, 400, 400, 400, 400, 429]);
    } finally {
      await limited.close();
    }
  });
});
