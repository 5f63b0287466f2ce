/** Sends the outcome of an idempotent POST: a stored refusal is replayed as problem+json. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdempotentOutcome } from '../modules/idempotency/idempotency.service.js';
import { sendProblem } from './error-handler.js';
import type { ProblemBody } from './errors.js';

export function idempotencyKey(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  return Array.isArray(value) ? value.join(',') : value;
}

export function sendOutcome(reply: FastifyReply, outcome: IdempotentOutcome): FastifyReply {
  if (outcome.replayed) void reply.header('idempotent-replayed', 'true');
  if (outcome.status >= 400) return sendProblem(reply, outcome.body as ProblemBody);
  return reply.code(outcome.status).send(outcome.body);
}
