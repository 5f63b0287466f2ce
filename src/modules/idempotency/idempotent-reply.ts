/**
 * Idempotent POSTs on the wire: the Idempotency-Key header in, the outcome out (a stored
 * refusal is replayed as problem+json, a replay is marked Idempotent-Replayed).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../../domain/caller.js';
import { sendProblem } from '../../http/error-handler.js';
import type { ProblemBody } from '../../http/problems.js';
import type { IdempotencyService, IdempotentOutcome, Recorder } from './idempotency.service.js';

export function idempotencyKey(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  return Array.isArray(value) ? value.join(',') : value;
}

export function sendOutcome(reply: FastifyReply, outcome: IdempotentOutcome): FastifyReply {
  if (outcome.replayed) void reply.header('idempotent-replayed', 'true');
  if (outcome.status >= 400) return sendProblem(reply, outcome.body as ProblemBody);
  return reply.code(outcome.status).send(outcome.body);
}

/** Runs `create` once per Idempotency-Key of the caller and answers 201 (or the replay). */
export async function idempotentCreate(
  idempotency: IdempotencyService,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: Caller,
  create: (record: Recorder) => Promise<unknown>,
): Promise<FastifyReply> {
  const outcome = await idempotency.run(
    {
      userId: caller.id,
      key: idempotencyKey(request),
      method: request.method,
      path: request.routeOptions.url ?? request.url,
      body: request.body,
    },
    async (record) => ({ status: 201, body: await create(record) }),
  );
  return sendOutcome(reply, outcome);
}
