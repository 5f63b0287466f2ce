/**
 * The matched route's options, read once per request. Fastify's `request.routeOptions` is a
 * getter that builds a new twelve-field object (and asks the router about version
 * constraints) at every read, and a request's hooks read it four times or more: the
 * authentication, the older versions' rewrites, the input budget, the metrics.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `routeOf` at the first read; use that. */
    matchedRoute: FastifyRequest['routeOptions'] | null;
  }
}

export function decorateRouteOf(app: FastifyInstance): void {
  app.decorateRequest('matchedRoute', null);
}

/** `request.routeOptions`, built at the first read and kept for the request's life. */
export const routeOf = (request: FastifyRequest): FastifyRequest['routeOptions'] =>
  (request.matchedRoute ??= request.routeOptions);
