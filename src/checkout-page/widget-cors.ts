/**
 * CORS for the checkout widget's browser calls: only a request carrying a publishable key
 * (or a preflight asking to send one) gets `Access-Control-Allow-*`, from any origin, and the
 * allowed headers leave out X-API-KEY, so no page can use an account's key cross-origin
 * through a visitor's browser. Every answer says `Vary: Origin`.
 *
 * The answers are what @fastify/cors 11 gives with `WIDGET_CORS` for widget requests and
 * `{ origin: false }` for the rest (a test sends both the same requests), but for a
 * malformed preflight, refused here in the documented problem format. Written out once
 * here: the library's per-request delegator copied and normalized its options and built two
 * closures on every request, the widget's or not, 3.4 % of one order's main thread
 * (docs/performance.md, issue 27, twelfth pass). What it does per request is now two header
 * reads and, for most requests, one header written.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalid } from '../domain/errors.js';
import { addVary } from '../http/vary.js';

/** The widget's CORS, in @fastify/cors's options: what the test compares against. */
export const WIDGET_CORS = {
  origin: '*',
  methods: ['GET', 'POST'],
  allowedHeaders: ['content-type', 'x-publishable-key', 'idempotency-key', 'x-api-version'],
  exposedHeaders: ['retry-after', 'x-api-version'],
  maxAge: 600,
};

const ALLOW_METHODS = WIDGET_CORS.methods.join(', ');
const ALLOW_HEADERS = WIDGET_CORS.allowedHeaders.join(', ');
const EXPOSE_HEADERS = WIDGET_CORS.exposedHeaders.join(', ');
const MAX_AGE = String(WIDGET_CORS.maxAge);

/** A request from the widget: it carries a publishable key, or asks (preflight) to send one. */
export function fromWidget(request: FastifyRequest): boolean {
  if (request.headers['x-publishable-key'] !== undefined) return true;
  const asked = request.headers['access-control-request-headers'];
  return typeof asked === 'string' && asked.toLowerCase().includes('x-publishable-key');
}

/** The headers that let the page's script read the answer: on every one, refusals too. */
function allowWidget(request: FastifyRequest, reply: FastifyReply): void {
  addVary(reply, 'Origin');
  if (!fromWidget(request)) return;
  void reply
    .header('access-control-allow-origin', WIDGET_CORS.origin)
    .header('access-control-expose-headers', EXPOSE_HEADERS);
}

export function registerWidgetCors(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (request.raw.method !== 'OPTIONS' || !fromWidget(request)) return done();
    // A preflight is answered here: no handler runs for it. Without the two headers a
    // browser sends, it is not one: refused in the documented format (the library answered
    // a bare text 400).
    if (!request.headers.origin || !request.headers['access-control-request-method']) {
      const missing = !request.headers.origin ? 'origin' : 'access-control-request-method';
      done(
        invalid('header', missing, 'A preflight sends Origin and Access-Control-Request-Method.'),
      );
      return;
    }
    void reply
      .header('access-control-allow-methods', ALLOW_METHODS)
      .header('access-control-allow-headers', ALLOW_HEADERS)
      .header('access-control-max-age', MAX_AGE)
      .code(204)
      .header('content-length', '0')
      .send();
  });
  // On sending, not on receiving: a request refused before this module's hooks run (the
  // rate limits, a wrong or revoked key: 429, 401, 403) is answered with them too, or the
  // browser hides the refusal and its Retry-After from the widget, which shows a network
  // failure instead.
  app.addHook('onSend', (request, reply, payload, done) => {
    allowWidget(request, reply);
    done(null, payload);
  });
}
