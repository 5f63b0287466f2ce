/**
 * Security headers on every response. Every answer gets the headers that act on any
 * response (OWASP's REST Security Cheat Sheet's set): `X-Content-Type-Options: nosniff`, a
 * strict Content-Security-Policy for the API (it serves data, never pages: nothing may be
 * loaded or framed), `X-Frame-Options`, `Strict-Transport-Security` and
 * `Cross-Origin-Resource-Policy`; no `X-Powered-By`. An HTML page (/docs, the checkout
 * page, a departure's printable manifest) also gets the rest of @fastify/helmet's set,
 * which only a browser's document reads (its opener, referrer, DNS prefetching, agent
 * cluster, the old XSS filter, IE's download prompt, Flash's and Acrobat's policy files):
 * sent with JSON they did nothing, and were 7 % of one order's instructions and a third of
 * its header bytes (docs/performance.md, issue 27, seventeenth pass). /docs keeps Swagger
 * UI's own policy, with `frame-ancestors 'none'` (src/http/openapi.ts). And `Cache-Control:
 * no-store` on every response that may carry a key or personal data: those to a request
 * with credentials, and every /api/users response (sign-up answers with a key to an
 * anonymous caller).
 *
 * The headers are written out once here rather than by @fastify/helmet at run time: it
 * built helmet's middleware, CSP text included, again on every request (issue 27's
 * profile). A test compares the two sets together with what @fastify/helmet sets for
 * `API_CSP`, so an upgrade that changes helmet's set shows there.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { decorateQueryApiKey, queryHasApiKey } from './logging.js';
import { atOnceOnSend } from './sync-hooks.js';
import { addVary } from './vary.js';

/** The request headers besides Origin that a cacheable answer depends on. */
const CACHE_KEY_HEADERS = 'X-Publishable-Key, X-API-Version';

/** The API's own policy: JSON is data; it loads nothing and may not be framed. */
export const API_CSP = {
  defaultSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
};

/** The headers every response carries: those that act on any response, not only a page. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none';base-uri 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
};

/**
 * The rest of @fastify/helmet 13's (helmet 8's) set, added to an HTML page: headers only a
 * browser's document reads.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'cross-origin-opener-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

const PAGE_ONLY = Object.entries(PAGE_HEADERS);

/** Whether the answer is a document a browser renders. */
const isPage = (contentType: unknown): boolean =>
  typeof contentType === 'string' && contentType.startsWith('text/html');

const hasCredentials = (request: FastifyRequest): boolean =>
  request.caller !== null ||
  request.headers['x-api-key'] !== undefined ||
  // A guest checkout's booking answers with the guest's name, email, phone and tickets (its
  // reads are the seller's public experiences, which stay cacheable).
  (request.headers['x-publishable-key'] !== undefined && request.method === 'POST') ||
  request.headers.authorization !== undefined ||
  queryHasApiKey(request);

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  // Worked out once per request, for these headers and every log line naming the request.
  decorateQueryApiKey(app);
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
      } else {
        // What a shared cache may keep differs by these: the same URL is 200 anonymously
        // and 404 with another seller's publishable key, and each version has its shape.
        addVary(reply, CACHE_KEY_HEADERS);
      }
      if (isPage(reply.getHeader('content-type'))) {
        // A route's own choice of one of these (none makes one today) is kept.
        for (const [name, value] of PAGE_ONLY)
          if (!reply.hasHeader(name)) void reply.header(name, value);
      }
      return payload;
    }),
  );
}
