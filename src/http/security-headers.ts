/**
 * Security headers on every response (@fastify/helmet): `X-Content-Type-Options: nosniff`,
 * a strict Content-Security-Policy for the API (it serves data, never pages: nothing may be
 * loaded or framed), no `X-Powered-By`; /docs gets Swagger UI's own policy, with
 * `frame-ancestors 'none'` (src/http/openapi.ts). And `Cache-Control: no-store` on every
 * response that may carry a key or personal data: those to a request with credentials, and
 * every /api/users response (sign-up answers with a key to an anonymous caller).
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { queryCarriesApiKey } from './logging.js';

/** The API's own policy: JSON is data; it loads nothing and may not be framed. */
const API_CSP = { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"] };

const hasCredentials = (request: FastifyRequest): boolean =>
  request.caller !== null ||
  request.headers['x-api-key'] !== undefined ||
  request.headers.authorization !== undefined ||
  queryCarriesApiKey(request.url);

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: API_CSP },
  });
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    if (hasCredentials(request) || request.url.startsWith('/api/users')) {
      void reply.header('cache-control', 'no-store');
    }
    return payload;
  });
}
