/**
 * OpenAPI 3.1 document at `/openapi.json` (every route with its schemas and errors) and the
 * interactive documentation at `/docs`.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { LATEST_VERSION } from '../versions/index.js';

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Booking API',
        version: LATEST_VERSION,
        description:
          'Multi-tenant booking API for tour and activity operators. Errors are ' +
          'application/problem+json; list endpoints share one query language ' +
          '(see docs/query-language.md). Choose an API version with X-API-VERSION.',
      },
      components: {
        securitySchemes: {
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
          apiKeyQuery: { type: 'apiKey', in: 'query', name: 'apiKey' },
          publishableKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Publishable-Key',
            description:
              'A seller’s publishable key (guest checkout): only the routes that say so take it (docs/security.md)',
          },
          basic: { type: 'http', scheme: 'basic', description: 'Sandbox environment only' },
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description:
              'OCTo (/octo) only: a reseller credential (POST /api/users/{id}/affiliates) or the seller’s own API key (docs/octo.md)',
          },
        },
      },
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
  });
  // No validator badge: the docs page must not call out to third-party hosts. Swagger UI's
  // own CSP (its scripts and styles by hash), never framed, and without
  // upgrade-insecure-requests, which would break the page on plain-HTTP localhost.
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { validatorUrl: null },
    staticCSP: true,
    transformStaticCSP: (header) =>
      header
        .replace(/frame-ancestors [^;]*;/, "frame-ancestors 'none';")
        .replace(/\s*upgrade-insecure-requests;/, '')
        .replace(/ validator\.swagger\.io/, ''),
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
