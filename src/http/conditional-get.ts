/**
 * Conditional GETs (RFC 9110 §13): every 200 answer to a GET or HEAD carries an `ETag` (a
 * hash of the bytes sent, so it differs by API version and by caller whenever the body
 * does), and a request whose `If-None-Match` names it is answered `304 Not Modified` with no
 * body. Written here rather than with @fastify/etag, which answers 304 to any method and
 * any status (a POST or a 404 could become a 304).
 *
 * A text body is encoded to bytes once, here, and sent as those bytes: hashing the string
 * encoded it, and Fastify measured (`content-length`) and encoded it again on the way out.
 *
 * The tag is the body's 64-bit xxHash (XXH64, seed 0), not a cryptographic digest: it only
 * has to tell one version of a URL's answer from the next, which 64 bits do (a client
 * mistaking a changed answer for its own is one chance in 2^64 per change), and nothing
 * secret rests on it. SHA-1 of a 20-order page (33 KB) was 20 µs, the largest slice of a
 * list request our own code paid for; XXH64 is under 3 µs (docs/performance.md, issue 27,
 * fifteenth pass). XXH64 is the same on every platform and instance, so instances behind
 * one balancer tag one body alike. Tags clients held from a release that used SHA-1 no
 * longer match: each gets one full answer, then the new tag.
 */
import xxhash from 'xxhash-wasm';
import type { FastifyReply, FastifyRequest } from 'fastify';

const hasher = await xxhash();

/** The ETag of a body's bytes: its XXH64, 16 hexadecimal digits, quoted. */
export const etagOf = (body: Uint8Array): string =>
  `"${hasher.h64Raw(body).toString(16).padStart(16, '0')}"`;

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
  reply.removeHeader('content-type');
  // A 304 may carry no Content-Length but the 200's own (RFC 9110 §8.6): Fastify wrote
  // `content-length: 0` for an empty payload, and a cache that refreshes its stored headers
  // from a 304 could cut its copy to nothing. A HEAD's payload is measured (the 200's
  // length, as a HEAD's 200 says) and dropped by Fastify's HEAD hook, which runs after this
  // one; a GET's is none at all, and gets no length.
  if (request.method === 'HEAD') return bytes;
  reply.removeHeader('content-length');
  return null;
}
