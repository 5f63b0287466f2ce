/**
 * Conditional GETs (RFC 9110 §13): every 200 answer to a GET or HEAD carries an `ETag` (a
 * hash of the bytes sent, so it differs by API version and by caller whenever the body
 * does), and a request whose `If-None-Match` names it is answered `304 Not Modified` with no
 * body. Written here rather than with @fastify/etag, which answers 304 to any method and
 * any status (a POST or a 404 could become a 304).
 *
 * A text body is encoded to bytes once, here, and sent as those bytes: hashing the string
 * encoded it, and Fastify measured (`content-length`) and encoded it again on the way out.
 * The one-shot `hash` builds no Hash object; the tag is the same SHA-1 as before, so tags
 * already held by clients stay valid.
 */
import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The ETag of a body's bytes: its SHA-1, base64url, quoted. */
export const etagOf = (body: Buffer): string => `"${hash('sha1', body, 'base64url')}"`;

/** Weak comparison (§8.8.3.2): `W/"x"` matches `"x"`; `*` matches anything. */
export function matches(ifNoneMatch: string, etag: string): boolean {
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

export function conditionalGet(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): unknown {
  if (request.method !== 'GET' && request.method !== 'HEAD') return payload;
  if (reply.statusCode !== 200) return payload;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const etag = etagOf(bytes);
  void reply.header('etag', etag);
  const asked = request.headers['if-none-match'];
  if (asked === undefined || !matches(asked, etag)) return bytes;
  void reply.code(304);
  reply.removeHeader('content-length');
  reply.removeHeader('content-type');
  return '';
}
