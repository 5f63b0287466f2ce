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

/** Sends `text` (a JSON document) as the answer; a handler returns what this returns. */
export const sendJsonText = <R extends FastifyReply>(reply: R, text: string): R =>
  reply.type('application/json; charset=utf-8').send(text) as R;

/**
 * A list page (`listOf`'s envelope: `data`, then `paging` with `next`, then `total` when
 * counted) around objects already JSON text.
 */
export function jsonPage(page: { data: readonly string[]; paging: Paging }): string {
  const { next, total } = page.paging;
  const paging = total === undefined ? { next } : { next, total };
  return `{"data":[${page.data.join(',')}],"paging":${JSON.stringify(paging)}}`;
}
