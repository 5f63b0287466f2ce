/**
 * The /octo scope: everything that makes a request there an OCTo request rather than an API
 * one. Its own authentication (`Authorization: Bearer <secret>`: a reseller credential, or
 * the seller's own API key; failures counted with the address's other failed credentials),
 * its own error bodies (`{error, errorMessage}`, never problem+json: every refusal the
 * platform raises is translated, a 5xx included), its own not-found answer, and the
 * `Octo-Capabilities` header echoed on every answer with the capabilities applied.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Caller, Reseller } from '../../domain/caller.js';
import { DomainError } from '../../domain/errors.js';
import { RETRY_AFTER_SECONDS, toProblem } from '../../http/error-handler.js';
import { textProblem } from '../../http/input-text.js';
import type { ProblemBody } from '../../http/problems.js';
import { capabilitiesHeader, parseCapabilities, type CapabilityId } from './capabilities.js';
import { OctoProblem, octoError, type OctoErrorReply } from './octo.errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Under /octo: who books, and the capabilities the request asked for that we offer. */
    octo?: { reseller?: Reseller; capabilities: CapabilityId[] };
  }
}

/** A Bearer secret as the reseller (or seller) it stands for; undefined when it is none. */
export type BearerAuthenticator = (secret: string) => Promise<Reseller | undefined>;
type Hook = (request: FastifyRequest) => Promise<void>;

export interface OctoScopeDeps {
  bearer: BearerAuthenticator;
  /** Wraps the authentication: its refusals count as failed credentials (http/auth.ts). */
  guard?: (hook: Hook) => Hook;
}

const BEARER = /^Bearer[ \t]+([^\s]+)$/i;

/** Who is calling /octo; OCTo's UNAUTHORIZED without a Bearer credential. */
function authentication(bearer: BearerAuthenticator): Hook {
  return async (request) => {
    const header = request.headers.authorization;
    if (header === undefined || header.trim() === '')
      throw new OctoProblem(octoError('UNAUTHORIZED'));
    const secret = BEARER.exec(header.trim())?.[1];
    if (secret === undefined)
      throw new OctoProblem(octoError('UNAUTHORIZED', 'send Authorization: Bearer <key>'));
    // Counted as a failed credential (invalid_credentials), answered as FORBIDDEN.
    const reseller = textProblem(secret) ? undefined : await bearer(secret);
    if (!reseller)
      throw new DomainError('invalid_credentials', 'The credential was not recognised.');
    request.octo = { capabilities: request.octo?.capabilities ?? [], reseller };
  };
}

/**
 * The seller's own API key on /octo (direct sales, testing): the seller as its own reseller,
 * its bookings' source `octo`, no commission. Another account's key (a customer's, a
 * delegate's) books nothing here.
 */
export const ownKeyReseller = (caller: Caller): Reseller | undefined =>
  caller.roles.includes('ROLE_SELLER')
    ? { resellerId: null, sellerId: caller.id, name: 'octo', commissionBps: null }
    : undefined;

/** The reseller of an authenticated /octo request. */
export function resellerOf(request: FastifyRequest): Reseller {
  const reseller = request.octo?.reseller;
  if (!reseller) throw new OctoProblem(octoError('UNAUTHORIZED'));
  return reseller;
}

export const capabilitiesOf = (request: FastifyRequest): CapabilityId[] =>
  request.octo?.capabilities ?? [];

/** A problem code of the platform, as OCTo says it. */
function fromProblem(code: string, status: number, detail: string): OctoErrorReply {
  if (code === 'invalid_credentials' || code === 'forbidden') return octoError('FORBIDDEN', detail);
  if (code === 'authentication_required' || code === 'unsupported_authorization')
    return octoError('UNAUTHORIZED', detail);
  if (status >= 500) return { ...octoError('INTERNAL_SERVER_ERROR', detail), status };
  // A limit keeps its status (and Retry-After): the client must wait, not fix the request.
  if (status === 429) return { ...octoError('BAD_REQUEST', detail), status };
  if (status === 409 || status === 422) return octoError('UNPROCESSABLE_ENTITY', detail);
  return octoError('BAD_REQUEST', detail);
}

function sendOcto(reply: FastifyReply, { status, body }: OctoErrorReply, retryAfter?: unknown) {
  if (status === 503) void reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  if (typeof retryAfter === 'number') void reply.header('retry-after', String(retryAfter));
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .serializer(JSON.stringify)
    .send(body);
}

/** A platform's refusal (problem+json) as OCTo's body, with its status and Retry-After. */
export const sendOctoProblem = (reply: FastifyReply, problem: ProblemBody): FastifyReply =>
  sendOcto(reply, fromProblem(problem.code, problem.status, problem.detail), problem.retryAfter);

export function registerOctoScope(app: FastifyInstance, deps: OctoScopeDeps): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof OctoProblem) {
      request.log.info({ code: error.reply.body.error }, 'request rejected');
      return sendOcto(reply, error.reply);
    }
    const problem = toProblem(error, request);
    if (problem.status >= 500 && problem.status !== 503)
      request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: problem.code }, 'request rejected');
    return sendOctoProblem(reply, problem);
  });
  app.setNotFoundHandler((request, reply) =>
    sendOcto(reply, {
      ...octoError(
        'BAD_REQUEST',
        `no OCTo endpoint ${request.method} ${request.url.split('?')[0]}`,
      ),
      status: 404,
    }),
  );
  // First, so that even a refusal of the credentials says which capabilities apply.
  app.addHook('onRequest', async (request) => {
    request.octo = { capabilities: parseCapabilities(request.headers['octo-capabilities']) };
  });
  const authenticate = authentication(deps.bearer);
  app.addHook('onRequest', deps.guard ? deps.guard(authenticate) : authenticate);
  app.addHook('onSend', async (request, reply) => {
    void reply.header('octo-capabilities', capabilitiesHeader(capabilitiesOf(request)));
  });
}
