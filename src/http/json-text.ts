/**
 * Answers PostgreSQL built as JSON text (db/json-view.ts), sent as they are: no parse, no
 * mapping, no serialization. Only a request that wants the latest version's shape with
 * nothing expanded gets one; any other gets the route's object, which the expand and
 * version hooks rewrite (they never see a text body).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Paging } from '../query/paging.js';

/** Whether this request's answer may be the view's JSON text as PostgreSQL built it. */
export const takesJsonText = (request: FastifyRequest): boolean =>
  request.latestShape && request.expand === undefined;

/**
 * Sends `json` (a JSON document, as text or bytes) as the answer; a handler returns what
 * this returns.
 */
export const sendJsonText = <R extends FastifyReply>(reply: R, json: string | Buffer): R =>
  reply.type('application/json; charset=utf-8').send(json) as R;

/**
 * The buffer a page is written into before it is copied out at its exact size: counting each
 * text's UTF-8 bytes first (`Buffer.byteLength`) walked the whole page once more, 1.5 % of
 * an events request's instructions, where the copy is a memcpy (docs/performance.md, issue 27,
 * twenty-third pass). A page whose bound passes SCRATCH_MAX gets a buffer of its own rather
 * than keeping one that large for the process's life.
 */
const SCRATCH_MAX = 1024 * 1024;
let scratch = Buffer.allocUnsafe(64 * 1024);

/** At most this many UTF-8 bytes: 3 per UTF-16 unit (a surrogate pair's 4 bytes are 2 units). */
const utf8Bound = (text: string): number => text.length * 3;

/**
 * A list page (`listOf`'s envelope: `data`, then `paging` with `next`, then `total` when
 * counted) around objects already JSON text, as the bytes sent. Each object is encoded
 * straight into one buffer: joining the texts into one string and encoding that (the ETag
 * and the socket want bytes) copied a page twice more on V8's heap, 40 % of what a list
 * request allocated, and the young generation's collections, the promotions they cause and
 * the old generation's marking grow with that (docs/performance.md, issue 27, seventh pass).
 */
export function jsonPage(page: { data: readonly string[]; paging: Paging }): Buffer {
  const { next, total } = page.paging;
  const head = '{"data":[';
  const tail = `],"paging":${JSON.stringify(total === undefined ? { next } : { next, total })}}`;
  let bound = head.length + utf8Bound(tail) + page.data.length;
  for (const text of page.data) bound += utf8Bound(text);
  const into =
    bound <= scratch.length
      ? scratch
      : bound <= SCRATCH_MAX
        ? (scratch = Buffer.allocUnsafe(bound))
        : Buffer.allocUnsafe(bound);
  let at = into.write(head, 0, 'latin1');
  page.data.forEach((text, i) => {
    if (i > 0) into[at++] = 0x2c; // ,
    at += into.write(text, at);
  });
  at += into.write(tail, at);
  const bytes = Buffer.allocUnsafe(at);
  into.copy(bytes, 0, 0, at);
  return bytes;
}
