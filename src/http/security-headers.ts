/**
 * Security headers on every response (@fastify/helmet's set): `X-Content-Type-Options: nosniff`,
 * a strict Content-Security-Policy for the API (it serves data, never pages: nothing may be
 * loaded or framed), no `X-Powered-By`; /docs gets Swagger UI's own policy, with
 * `frame-ancestors 'none'` (src/http/openapi.ts). And `Cache-Control: no-store` on every
 * response that may carry a key or personal data: those to a request with credentials, and
 * every /api/users response (sign-up answers with a key to an anonymous caller).
 *
 * The headers are written out once here rather than by @fastify/helmet at run time: it
 * built helmet's middleware, CSP text included, again on every request (issue 27's
 * profile). A test compares them with what @fastify/helmet sets for `API_CSP`, so an upgrade
 * that changes helmet's set shows there.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { queryCarriesApiKey } from './logging.js';
import { atOnceOnSend } from './sync-hooks.js';

/** The API's own policy: JSON is data; it loads nothing and may not be framed. */
export const API_CSP = {
  defaultSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
};

/** What @fastify/helmet 13 (helmet 8) sets with `API_CSP` and its other defaults. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none';base-uri 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

const hasCredentials = (request: FastifyRequest): boolean =>
  request.caller !== null ||
  request.headers['x-api-key'] !== undefined ||
  request.headers.authorization !== undefined ||
  queryCarriesApiKey(request.url);

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  // Set first thing, as helmet did: a route may still replace one (the /docs page's CSP).
  app.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(SECURITY_HEADERS);
    done();
  });
  app.addHook(
    'onSend',
    atOnceOnSend((request, reply, payload) => {
      if (hasCredentials(request) || request.url.startsWith('/api/users')) {
        void reply.header('cache-control', 'no-store');
      }
      return payload;
    }),
  );
}
