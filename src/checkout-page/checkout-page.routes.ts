/**
 * The server side of the checkout widget (whose browser source is widget/ at the root).
 * `GET /checkout.js`: the widget's script, for operators' pages on any origin
 * (Cross-Origin-Resource-Policy: cross-origin), cached for five minutes and revalidated by
 * its ETag (http/conditional-get.ts), with what the widget must know of this service written
 * in (whether email goes out, so it never promises a confirmation that waits in the outbox). And CORS for the browser calls the widget makes: only
 * requests carrying a publishable key (and their preflights) get `Access-Control-Allow-*`,
 * and the allowed headers leave out X-API-KEY, so no page can use an account's key
 * cross-origin through a visitor's browser. And `/demo` (demo.ts) when DEMO_PAGE is on.
 */
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { demoPage, demoShop } from './demo.js';
import { loadWidget, withSettings, type WidgetSettings } from './widget-bundle.js';

const CHECKOUT_HEADERS = ['content-type', 'x-publishable-key', 'idempotency-key', 'x-api-version'];

/** A request from the widget: it carries a publishable key, or asks (preflight) to send one. */
function fromWidget(request: FastifyRequest): boolean {
  if (request.headers['x-publishable-key'] !== undefined) return true;
  const asked = request.headers['access-control-request-headers'];
  return typeof asked === 'string' && asked.toLowerCase().includes('x-publishable-key');
}

/** What a page may load: its own scripts, its inline styles (the widget's shadow styles). */
const DEMO_CSP =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

export async function checkoutPageRoutes(
  app: FastifyInstance,
  options: { demo: boolean; dataDir: string; widget: WidgetSettings },
): Promise<void> {
  await app.register(cors, {
    delegator: (request, callback) =>
      callback(
        null,
        fromWidget(request)
          ? {
              origin: '*',
              methods: ['GET', 'POST'],
              allowedHeaders: CHECKOUT_HEADERS,
              exposedHeaders: ['retry-after', 'x-api-version'],
              maxAge: 600,
            }
          : { origin: false },
      ),
  });
  // Read (or built) on the first request, not at start-up: most processes never serve it.
  let script: Promise<Buffer> | undefined;
  app.get('/checkout.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('application/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(await (script ??= loadWidget().then((code) => withSettings(code, options.widget)))),
  );
  if (!options.demo) return;
  const shop = demoShop(app, options.dataDir);
  app.get('/demo', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', DEMO_CSP)
      .header('cache-control', 'no-store')
      .send(demoPage(await shop())),
  );
}
