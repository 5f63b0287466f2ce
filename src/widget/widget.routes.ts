/**
 * `GET /checkout.js`: the checkout widget's script, for operators' pages on any origin
 * (Cross-Origin-Resource-Policy: cross-origin), cached for five minutes and revalidated by
 * its ETag (http/conditional-get.ts). And CORS for the browser calls the widget makes: only
 * requests carrying a publishable key (and their preflights) get `Access-Control-Allow-*`,
 * and the allowed headers leave out X-API-KEY, so no page can use an account's key
 * cross-origin through a visitor's browser.
 */
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { loadWidget } from './widget-bundle.js';

const CHECKOUT_HEADERS = ['content-type', 'x-publishable-key', 'idempotency-key', 'x-api-version'];

/** A request from the widget: it carries a publishable key, or asks (preflight) to send one. */
function fromWidget(request: FastifyRequest): boolean {
  if (request.headers['x-publishable-key'] !== undefined) return true;
  const asked = request.headers['access-control-request-headers'];
  return typeof asked === 'string' && asked.toLowerCase().includes('x-publishable-key');
}

export async function widgetRoutes(app: FastifyInstance): Promise<void> {
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
  const script = await loadWidget();
  app.get('/checkout.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('application/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(script),
  );
}
