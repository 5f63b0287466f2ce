/**
 * `Vary`, added to rather than replaced: several layers name the request headers an answer
 * depends on (the widget's CORS, the cache rules of security-headers.ts), and a route may
 * have set its own.
 */
import type { FastifyReply } from 'fastify';

/** Adds each of `fields` to `Vary` unless it is there (or `*` is), keeping what is. */
export function addVary(reply: FastifyReply, fields: string): void {
  const current = reply.getHeader('vary');
  if (current === undefined || current === '') {
    void reply.header('vary', fields);
    return;
  }
  const text = Array.isArray(current) ? current.join(', ') : String(current);
  const present = new Set(text.split(',').map((field) => field.trim().toLowerCase()));
  if (present.has('*')) return;
  const missing = fields
    .split(',')
    .map((field) => field.trim())
    .filter((field) => !present.has(field.toLowerCase()));
  if (missing.length > 0) void reply.header('vary', [text, ...missing].join(', '));
}
