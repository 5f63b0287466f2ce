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

/**
 * An onRequest or preValidation hook from a function that works at once on most requests
 * and returns a promise only on those it must wait for (a counter in Redis, a rewrite that
 * reads the database): the others pay no promise.
 */
export function atOnceOrAfter(
  work: (request: FastifyRequest, reply: FastifyReply) => Promise<void> | undefined,
): (request: FastifyRequest, reply: FastifyReply, done: Done) => void {
  return (request, reply, done) => {
    const pending = work(request, reply);
    if (pending === undefined) done();
    else pending.then(() => done(), done);
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
