/**
 * Request ids: a client's `X-Request-Id` is kept when it is a sane token that does not look
 * like a credential (a key pasted there would be on every log line), otherwise one is
 * generated; either way it is on every log line and echoed on every response.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { holdsSecret } from './secret-shapes.js';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function genReqId(raw: IncomingMessage): string {
  const offered = raw.headers['x-request-id'];
  return typeof offered === 'string' && SAFE_ID.test(offered) && !holdsSecret(offered)
    ? offered
    : randomUUID();
}

export function echoRequestId(request: FastifyRequest, reply: FastifyReply): void {
  void reply.header('x-request-id', request.id);
}
