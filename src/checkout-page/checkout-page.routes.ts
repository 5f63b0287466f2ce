/**
 * The server side of the checkout widget (whose browser source is widget/ at the root).
 * `GET /checkout.js`: the widget's script, for operators' pages on any origin
 * (Cross-Origin-Resource-Policy: cross-origin), cached for five minutes and revalidated by
 * its ETag (http/conditional-get.ts), with what the widget must know of this service written
 * in (whether email goes out, so it never promises a confirmation that waits in the outbox). And
 * CORS for the browser calls the widget makes (widget-cors.ts). And `/demo` (demo.ts) when
 * DEMO_PAGE is on.
 */
import type { FastifyInstance } from 'fastify';
import { demoPage, demoShop } from './demo.js';
import { registerWidgetCors } from './widget-cors.js';
import { loadWidget, withSettings, type WidgetSettings } from './widget-bundle.js';

/** Failures of a load that another may not meet: out of file descriptors or memory. */
const TRANSIENT = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'ENOMEM']);

/** What a page may load: its own scripts, its inline styles (the widget's shadow styles). */
const DEMO_CSP =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

export async function checkoutPageRoutes(
  app: FastifyInstance,
  options: { demo: boolean; dataDir: string; widget: WidgetSettings },
): Promise<void> {
  registerWidgetCors(app);
  // Read (or built) on the first request, not at start-up: most processes never serve it.
  // A load that failed for want of a resource is forgotten: one EMFILE in a connection flood
  // answered 500 to every later request for the script, every seller's checkout button off
  // until a restart. Any other failure (a release without its widget) is kept: a public
  // route must not run a build on every request.
  let script: Promise<Buffer> | undefined;
  const loaded = () =>
    (script ??= loadWidget().then(
      (code) => withSettings(code, options.widget),
      (error: unknown) => {
        if (TRANSIENT.has((error as { code?: string }).code ?? '')) script = undefined;
        throw error;
      },
    ));
  app.get('/checkout.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('application/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(await loaded()),
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
