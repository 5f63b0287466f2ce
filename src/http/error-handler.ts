/**
 * Renders every failure as application/problem+json: our own `DomainError`s, query-language
 * errors, schema validation errors, Fastify's body-parsing errors and unknown routes.
 * A lost or unreachable database, one out of disk or memory, or a statement past its
 * statement or lock timeout is a 503 with Retry-After (the client should retry; logged as
 * `request deferred`, with the cause); anything else unexpected becomes a 500 that says
 * only `internal_error` and the request id. The cause goes to the log, never to the client.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  isConnectionError,
  isDataException,
  isLockNotAvailable,
  isResourceExhausted,
  isStatementTimeout,
} from '../db/errors.js';
import { QueryError } from '../query/errors.js';
import { clip } from '../query/values.js';
import { PasswordHashBusyError } from '../security/passwords.js';
import { DomainError } from '../domain/errors.js';
import {
  problem,
  problemCodes,
  problemOf,
  type ProblemBody,
  type ProblemCode,
} from './problems.js';
import { toFieldErrors } from './validation.js';

const FASTIFY_CODES: Record<string, ProblemCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  FST_ERR_BAD_URL: 'bad_request',
  FST_ERR_ASYNC_CONSTRAINT: 'bad_request',
  FST_ERR_MAX_PARAM_LENGTH: 'uri_too_long',
};

/** What a 503 asks clients to wait before retrying, in seconds. */
export const RETRY_AFTER_SECONDS = 2;

export function toProblem(error: unknown, request: FastifyRequest): ProblemBody {
  const requestId = request.id;
  if (error instanceof DomainError) return problemOf(error, requestId);
  if (error instanceof QueryError) {
    return problem(error.code, error.message, {
      requestId,
      errors: [{ in: 'query', name: error.parameter, detail: error.detail }],
    });
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const errors = toFieldErrors(fastifyError.validation, fastifyError.validationContext ?? '');
    const detail = errors.map((e) => `${e.name} ${e.detail}`).join('; ');
    return problem('validation_failed', detail, { requestId, errors });
  }
  const mapped = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (mapped) {
    const detail = describeFastifyError(mapped, fastifyError, request.routeOptions?.bodyLimit);
    return problem(mapped, detail, { requestId });
  }
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return problem('invalid_json', 'The body is not valid JSON.', { requestId });
  }
  // Any other client error Fastify raises (its codes are all FST_*): a 400, never a 500.
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500 && fastifyError.code?.startsWith('FST_')) {
    return problem('bad_request', fastifyError.message, { requestId });
  }
  if (isDataException(error)) {
    return problem('bad_request', 'A value in the request cannot be stored or compared.', {
      requestId,
    });
  }
  if (error instanceof PasswordHashBusyError) {
    return problem('service_unavailable', 'Too many sign-ins at once; retry shortly.', {
      requestId,
    });
  }
  if (isConnectionError(error)) {
    return problem(
      'service_unavailable',
      'The database cannot be reached right now; retry shortly.',
      { requestId },
    );
  }
  if (isStatementTimeout(error)) {
    return problem('service_unavailable', 'The database took too long to answer; retry shortly.', {
      requestId,
    });
  }
  if (isLockNotAvailable(error)) {
    return problem('service_unavailable', 'The data is locked by other work; retry shortly.', {
      requestId,
    });
  }
  if (isResourceExhausted(error)) {
    return problem('service_unavailable', 'The database is short of disk or memory; retry later.', {
      requestId,
    });
  }
  return problem('internal_error', `Internal error; quote request id ${requestId}.`, {
    requestId,
  });
}

function describeFastifyError(code: ProblemCode, error: FastifyError, limit?: number): string {
  switch (code) {
    case 'payload_too_large':
      // Each route's limit follows from its body schema (body-limits.ts): say which applies.
      return limit === undefined
        ? 'The body is larger than the server accepts.'
        : `The body is larger than this route accepts (${limit} bytes).`;
    case 'unsupported_media_type':
      return 'Send JSON, with Content-Type: application/json (or no Content-Type at all).';
    case 'invalid_json':
      return 'The body is not valid JSON.';
    case 'uri_too_long':
      return 'A path segment is longer than the server accepts.';
    default:
      return error.message;
  }
}

/** A prefix whose refusals have their own body (a module's: OCTo's under /octo). */
export interface ProblemScope {
  prefix: string;
  send(reply: FastifyReply, body: ProblemBody): FastifyReply;
}

const scopes = new WeakMap<FastifyInstance, ProblemScope[]>();

/**
 * Refusals under `scope.prefix` that never reach the scope's routes (a URL the router cannot
 * decode, a path segment too long) answered in the scope's body too.
 */
export function scopeProblems(app: FastifyInstance, scope: ProblemScope): void {
  scopes.set(app, [...(scopes.get(app) ?? []), scope]);
}

/** Whether a request URL's path is `prefix` or below it. */
export const isUnder = (url: string, prefix: string): boolean => {
  const path = url.split('?', 1)[0]!;
  return path === prefix || path.startsWith(`${prefix}/`);
};

/** `sendProblem`, in the body of the scope the request is under, if any. */
export function sendScopedProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  body: ProblemBody,
): FastifyReply {
  const scope = scopes.get(reply.server)?.find((s) => isUnder(request.url, s.prefix));
  return scope ? scope.send(reply, body) : sendProblem(reply, body);
}

export function sendProblem(reply: FastifyReply, body: ProblemBody): FastifyReply {
  // A 503 is temporary by definition: say when to come back (RFC 9110 section 10.2.3); a
  // throttled refusal says how long it lasts.
  if (body.status === 503) void reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  if (typeof body.retryAfter === 'number')
    void reply.header('retry-after', String(body.retryAfter));
  // Serialized here, not by a route's response schema, so extra members always survive.
  return reply
    .code(body.status)
    .type('application/problem+json; charset=utf-8')
    .serializer(JSON.stringify)
    .send(body);
}

const CLIENT_ERRORS: Record<string, { code: ProblemCode; detail: string }> = {
  HPE_HEADER_OVERFLOW: {
    code: 'headers_too_large',
    detail: 'The request headers are larger than the server accepts.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    code: 'request_timeout',
    detail: 'The request was not received in time; the connection is closed.',
  },
};

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (headers too large, a
 * client too slow to send its headers, malformed HTTP): answered as problem+json like every
 * other error, then the connection is closed. Fastify's `clientErrorHandler`.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = error.code ? CLIENT_ERRORS[error.code] : undefined;
  const body = JSON.stringify(
    known
      ? problem(known.code, known.detail)
      : problem('bad_request', 'The request is not valid HTTP.'),
  );
  const status = known ? problemCodes[known.code].status : 400;
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/problem+json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  } else socket.destroy();
}

/** The path of a URL as a 404 names it: clipped, since it is whatever the client sent. */
const shownPath = (url: string): string => clip(url.split('?', 1)[0] ?? '', 200);

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const body = toProblem(error, request);
    if (body.status === 503) {
      // Expected during a database outage: one line per request, no stack traces.
      request.log.warn({ code: body.code, cause: (error as Error).message }, 'request deferred');
    } else if (body.status >= 500) request.log.error({ err: error }, 'request failed');
    else if (isDataException(error)) {
      // Validation should have caught it first: worth an operator's look.
      request.log.warn({ cause: (error as Error).message }, 'value refused by the database');
    } else request.log.info({ code: body.code }, 'request rejected');
    return sendScopedProblem(request, reply, body);
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      reply,
      problem('route_not_found', `No endpoint ${request.method} ${shownPath(request.url)}.`, {
        requestId: request.id,
      }),
    ),
  );
}
