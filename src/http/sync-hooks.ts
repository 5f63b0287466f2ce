/**
 * Hooks that do their work at once, registered in Fastify's callback form. An `async` hook
 * costs every request a promise and a trip through the microtask queue for nothing; a dozen
 * of them run on each request. A throw reaches Fastify as a rejection would: its hook
 * runners catch it and answer the error (fastify/lib/hooks.js).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

type Done = (error?: Error) => void;

/** An onRequest, preValidation or onResponse hook from a function of the request and reply. */
export function atOnce(
  work: (request: FastifyRequest, reply: FastifyReply) => void,
): (request: FastifyRequest, reply: FastifyReply, done: Done) => void {
  return (request, reply, done) => {
    work(request, reply);
    done();
  };
}

/** An onSend hook from a function that returns the payload to send. */
export function atOnceOnSend(
  work: (request: FastifyRequest, reply: FastifyReply, payload: unknown) => unknown,
): (
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: Error | null, payload?: unknown) => void,
) => void {
  return (request, reply, payload, done) => done(null, work(request, reply, payload));
}
