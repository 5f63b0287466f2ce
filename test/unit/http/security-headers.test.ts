/**
 * The security headers written out once (http/security-headers.ts) are exactly the set
 * @fastify/helmet puts on a response for the API's policy, and a route may still replace
 * one (the /docs page's own CSP).
 */
import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  API_CSP,
  SECURITY_HEADERS,
  registerSecurityHeaders,
} from '../../../src/http/security-headers.js';

const GENERAL = new Set(['content-type', 'content-length', 'date', 'connection']);
const securityHeaders = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !GENERAL.has(name)));

describe('security headers', () => {
  it("are @fastify/helmet's for the API's policy", async () => {
    const app = Fastify();
    await app.register(helmet, {
      global: true,
      contentSecurityPolicy: { useDefaults: false, directives: API_CSP },
    });
    app.get('/', async () => ({}));
    const response = await app.inject('/');
    expect(securityHeaders(response.headers)).toEqual(SECURITY_HEADERS);
    await app.close();
  });

  it('go on every answer, a 404 too, and a route may replace one', async () => {
    const app = Fastify();
    app.decorateRequest('caller', null);
    await registerSecurityHeaders(app);
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
