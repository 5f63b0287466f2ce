/**
 * The security headers written out once (http/security-headers.ts): together, the two sets
 * are exactly what @fastify/helmet puts on a response for the API's policy; an HTML page
 * gets both, any other answer (JSON, a 404, a script) the first only; and a route may still
 * replace one (the /docs page's own CSP).
 */
import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  API_CSP,
  PAGE_HEADERS,
  SECURITY_HEADERS,
  registerSecurityHeaders,
} from '../../../src/http/security-headers.js';

// `vary` is the cache rules' (test/http/cache-keys.test.ts), not helmet's.
const GENERAL = new Set(['content-type', 'content-length', 'date', 'connection', 'vary']);
const securityHeaders = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !GENERAL.has(name)));

/** A bare server with the headers registered as the app registers them. */
async function withHeaders() {
  const app = Fastify();
  app.decorateRequest('caller', null);
  await registerSecurityHeaders(app);
  return app;
}

describe('security headers', () => {
  it("are @fastify/helmet's for the API's policy", async () => {
    const app = Fastify();
    await app.register(helmet, {
      global: true,
      contentSecurityPolicy: { useDefaults: false, directives: API_CSP },
    });
    app.get('/', async () => ({}));
    const response = await app.inject('/');
    expect(securityHeaders(response.headers)).toEqual({ ...SECURITY_HEADERS, ...PAGE_HEADERS });
    await app.close();
  });

  it('are all on an HTML page, and the page-only ones on nothing else', async () => {
    const app = await withHeaders();
    app.get('/page', async (_request, reply) =>
      reply.type('text/html; charset=utf-8').send('<!doctype html><title>x</title>'),
    );
    app.get('/data', async () => ({ a: 1 }));
    app.get('/script', async (_request, reply) =>
      reply.type('application/javascript').send('void 0'),
    );
    const page = await app.inject('/page');
    expect(securityHeaders(page.headers)).toEqual({ ...SECURITY_HEADERS, ...PAGE_HEADERS });
    for (const url of ['/data', '/script']) {
      const answer = await app.inject(url);
      expect(securityHeaders(answer.headers)).toEqual(SECURITY_HEADERS);
      for (const name of Object.keys(PAGE_HEADERS)) expect(answer.headers[name]).toBeUndefined();
    }
    await app.close();
  });

  it('go on every answer, a 404 too, and a route may replace one', async () => {
    const app = await withHeaders();
    app.get('/page', async (_request, reply) =>
      reply.header('content-security-policy', "default-src 'self'").send({}),
    );
    const page = await app.inject('/page');
    expect(page.headers['content-security-policy']).toBe("default-src 'self'");
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    const missing = await app.inject('/nothing');
    expect(missing.statusCode).toBe(404);
    expect(securityHeaders(missing.headers)).toEqual(SECURITY_HEADERS);
    await app.close();
  });
});
