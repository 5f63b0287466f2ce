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
 * A list page (`listOf`'s envelope: `data`, then `paging` with `next`, then `total` when
 * counted) around objects already JSON text, as the bytes sent. Each object is encoded
 * straight into one buffer of the page's size: joining the texts into one string and
 * encoding that (the ETag and the socket want bytes) copied a page twice more on V8's heap,
 * 40 % of what a list request allocated, and the young generation's collections, the
 * promotions they cause and the old generation's marking grow with that
 * (docs/performance.md, issue 27, seventh pass).
 */
export function jsonPage(page: { data: readonly string[]; paging: Paging }): Buffer {
  const { next, total } = page.paging;
  const head = '{"data":[';
  const tail = `],"paging":${JSON.stringify(total === undefined ? { next } : { next, total })}}`;
  let size = head.length + Buffer.byteLength(tail) + Math.max(page.data.length - 1, 0);
  for (const text of page.data) size += Buffer.byteLength(text);
  const bytes = Buffer.allocUnsafe(size);
  let at = bytes.write(head, 0, 'latin1');
  page.data.forEach((text, i) => {
    if (i > 0) bytes[at++] = 0x2c; // ,
    at += bytes.write(text, at);
  });
  bytes.write(tail, at);
  return bytes;
}
