import { errorResponses } from '../../http/schemas.js';
/**
 * Idempotent POSTs on the wire: the Idempotency-Key header in, the outcome out (a stored
 * refusal is replayed as problem+json, a replay is marked Idempotent-Replayed).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../../domain/caller.js';
import { sendProblem } from '../../http/error-handler.js';
import type { ProblemBody } from '../../http/problems.js';
import type { IdempotencyService, IdempotentOutcome, Recorder } from './idempotency.service.js';

function idempotencyKey(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  return Array.isArray(value) ? value.join(',') : value;
}

/**
 * What a request is, for its Idempotency-Key: its method, its path as asked (its ids
 * included: one key sent to two sellers' `/users/{id}/...` is two requests; the route's
 * pattern replayed the first seller's answer to both) and its body.
 */
export const requestOf = (request: FastifyRequest) => ({
  key: idempotencyKey(request),
  method: request.method,
  path: request.url.split('?')[0]!,
  body: request.body,
});

export function sendOutcome(reply: FastifyReply, outcome: IdempotentOutcome): FastifyReply {
  if (outcome.replayed) void reply.header('idempotent-replayed', 'true');
  if (outcome.status >= 400) return sendProblem(reply, outcome.body as ProblemBody);
  return reply.code(outcome.status).send(outcome.body);
}

export interface IdempotentOptions {
  /** What is stored for a replay, when the response holds a secret (a new account's key). */
  stored?: (body: unknown) => unknown;
  /** The stored body made whole again for a replay. */
  replayed?: (body: unknown) => Promise<unknown>;
}

/**
 * Runs `create` once per Idempotency-Key and answers 201 (or the replay). The key belongs to
 * the caller, or to the client address for sign-up (`caller` null).
 */
export async function idempotentCreate(
  idempotency: IdempotencyService,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: Caller | null,
  create: (record: Recorder) => Promise<unknown>,
  options: IdempotentOptions = {},
): Promise<FastifyReply> {
  return idempotent(idempotency, request, reply, caller, create, options, 201);
}

/**
 * Runs a change of one resource once per Idempotency-Key and answers 200 (or the replay).
 * The key is bound to the resource's own path, so one key cannot replay another's change.
 */
export async function idempotentUpdate(
  idempotency: IdempotencyService,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: Caller,
  update: (record: Recorder) => Promise<unknown>,
): Promise<FastifyReply> {
  return idempotent(idempotency, request, reply, caller, update, {}, 200);
}

async function idempotent(
  idempotency: IdempotencyService,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: Caller | null,
  perform: (record: Recorder) => Promise<unknown>,
  options: IdempotentOptions,
  status: 200 | 201,
): Promise<FastifyReply> {
  const stored = options.stored ?? ((body: unknown) => body);
  const outcome = await idempotency.run(
    {
      // A guest checkout's keys are its own per publishable key, not per client address: a
      // phone that changed networks between an attempt and its retry must find its order
      // (the key is a random UUID the widget made, and a replay needs the same body).
      scope: caller
        ? caller.id
        : request.checkout
          ? `checkout:${request.checkout.keyId}`
          : `address:${request.ip}`,
      ...requestOf(request),
    },
    async (record) => {
      const body = await perform((tx, result) =>
        record(tx, { ...result, body: stored(result.body) }),
      );
      return { status, body, stored: stored(body) };
    },
  );
  if (outcome.replayed && outcome.status < 400 && options.replayed) {
    return sendOutcome(reply, { ...outcome, body: await options.replayed(outcome.body) });
  }
  return sendOutcome(reply, outcome);
}

/** The answers an Idempotency-Key adds to a route's documented errors. */
export const idempotencyErrors = errorResponses(
  'invalid_idempotency_key',
  'idempotency_key_reused',
  'idempotency_in_progress',
);
