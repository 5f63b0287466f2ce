/**
 * API versions on the wire: `X-API-VERSION` is resolved before authentication (so a 401
 * still echoes a version), the account's pinned version applies after it when the header
 * is absent, and the dated changes of src/versions/ rewrite requests and responses for
 * callers on older versions.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import type { VersionRegistry } from '../versions/registry.js';
import { SentNames, type NamedPart } from '../versions/sent-names.js';
import { applyTransforms } from '../versions/transforms.js';
import type { RequestParts } from '../versions/types.js';
import { DomainError } from '../domain/errors.js';
import { routeOf } from './route-of.js';
import { freeFormResponse } from './versioning-free-form.js';

declare module 'fastify' {
  interface FastifyRequest {
    apiVersion: string;
    /** The version's objects are the latest's shape: no dated change rewrites them. */
    latestShape: boolean;
  }
}

export const VERSION_HEADER = 'x-api-version';

function explicitVersion(request: FastifyRequest): string | undefined {
  const value = request.headers[VERSION_HEADER];
  return Array.isArray(value) ? value.join(',') : value;
}

/** What the request's rewrites renamed, for the answers about it (set when a rewrite ran). */
const sentNamesOf = new WeakMap<FastifyRequest, SentNames>();

/** A name of the (rewritten) request as the client sent it: `X-Ignored-Fields` says that one. */
export function nameAsSent(request: FastifyRequest, part: NamedPart, name: string): string {
  return sentNamesOf.get(request)?.asSent(part, name) ?? name;
}

export function versionHooks(registry: VersionRegistry, db: Db) {
  // A version at or after the newest object change sees the latest shape.
  const newestChange = registry
    .objectTransforms('')
    .reduce((newest, t) => (t.version > newest ? t.version : newest), '');
  const setVersion = (request: FastifyRequest, reply: FastifyReply, version: string) => {
    request.apiVersion = version;
    request.latestShape = version >= newestChange;
    void reply.header(VERSION_HEADER, version);
  };
  return {
    /**
     * onRequest, before the limiters: the header's version when it resolves, else the
     * latest, so an answer refused before `fromHeader` runs (a 429) still carries one.
     * Never refuses: a bad header is `fromHeader`'s to answer, after the limits counted it.
     */
    provisional: (request: FastifyRequest, reply: FastifyReply): void => {
      const header = explicitVersion(request);
      let version = registry.latest;
      try {
        if (header !== undefined) version = registry.resolve(header, undefined);
      } catch {
        // fromHeader answers 400 for it.
      }
      setVersion(request, reply, version);
    },

    /** onRequest, before authentication: the header's version, or provisionally the latest. */
    fromHeader: (request: FastifyRequest, reply: FastifyReply): void => {
      setVersion(request, reply, registry.latest);
      const header = explicitVersion(request);
      if (header === undefined) return;
      try {
        setVersion(request, reply, registry.resolve(header, undefined));
      } catch (error) {
        throw new DomainError('invalid_api_version', (error as Error).message, {
          errors: [{ in: 'header', name: 'X-API-VERSION', detail: 'must be a date YYYY-MM-DD' }],
        });
      }
    },

    /** onRequest, after authentication: without a header, the account's pinned version. */
    fromAccount: (request: FastifyRequest, reply: FastifyReply): void => {
      if (explicitVersion(request) !== undefined || !request.caller) return;
      setVersion(request, reply, registry.resolve(undefined, request.caller.apiVersion));
    },

    /** preValidation: translate an older request into the current shape. */
    rewriteRequest: (request: FastifyRequest): Promise<void> | undefined => {
      // A HEAD is its GET without the body (Fastify's automatic HEAD routes): the same rewrites.
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      const route = { method, url: routeOf(request).url ?? '' };
      const changes = registry.requestRewrites(request.apiVersion, route);
      if (changes.length === 0) return undefined;
      const sentNames = new SentNames();
      sentNamesOf.set(request, sentNames);
      const context = { db, caller: request.caller, sentNames };
      return (async () => {
        for (const change of changes) {
          await change.rewrite(request as unknown as RequestParts, context);
        }
      })();
    },

    /**
     * preSerialization: every object in the response (a page, a nested object, an error
     * body) in the shape of the caller's version. A response that is the client's free-form
     * JSON (metadata) has no objects of the API: it goes out as stored.
     */
    rewriteResponse: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const transforms = registry.objectTransforms(request.apiVersion);
      if (transforms.length === 0 || freeFormResponse(request, reply)) return payload;
      const body = await applyTransforms(payload, transforms, {
        db,
        caller: request.caller,
        sentNames: sentNamesOf.get(request),
      });
      // The route's response schema describes the latest shape; an older one is sent as is.
      reply.serializer(JSON.stringify);
      return body;
    },
  };
}

/**
 * Refuses to start when a request rewrite names no route: a route renamed or a rewrite's
 * url mistyped would otherwise leave older callers' requests unrewritten without a word.
 * Routes are collected as registered (the same method and pattern `rewriteRequest` matches
 * on), so call this before registering any; the check runs once the app is ready.
 */
export function checkRewriteRoutes(app: FastifyInstance, registry: VersionRegistry): void {
  const routes = new Set<string>();
  const key = (method: string, url: string) => `${method} ${url}`;
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.add(key(method, route.url));
  });
  app.addHook('onReady', async () => {
    const stray = registry.rewrites.filter((r) => !routes.has(key(r.method, r.url)));
    if (stray.length > 0) {
      throw new Error(
        `Request rewrites name no registered route: ${stray
          .map((r) => `${r.version} ${key(r.method, r.url)}`)
          .join(', ')}`,
      );
    }
  });
}

/** Gate for behaviour that differs by version: is this request on a version before `date`? */
export function versionBefore(request: FastifyRequest, date: string): boolean {
  return request.apiVersion < date;
}
