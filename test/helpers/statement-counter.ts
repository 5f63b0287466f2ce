/**
 * Counts the statements the app sends to the database (every `query` on a pg client,
 * BEGIN and COMMIT included), by text, while `work` runs: how the tests hold a request's
 * round trips to what docs/performance.md promises. The listening connection is not
 * counted: the key cache's barriers go there, at most two per API_KEY_CACHE_STALE_MS per
 * instance however many requests run (caller-cache.ts), never from the pool.
 *
 * A BEGIN or COMMIT sent in the same message as a statement (db/pipelined-transaction.ts, on
 * a real server) is listed as the statement it is, and `roundTrips` counts the messages.
 */
import pg from 'pg';
import { LISTENER_APPLICATION_NAME } from '../../src/db/database.js';
import { PipelinedQuery } from '../../src/db/pipelined-transaction.js';

export type Statements = string[] & { roundTrips: number };

export async function countStatements(work: () => Promise<unknown>): Promise<Statements> {
  const seen = Object.assign([] as string[], { roundTrips: 0 });
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const { application_name } =
      (this as { connectionParameters?: { application_name?: string } }).connectionParameters ?? {};
    if (application_name === LISTENER_APPLICATION_NAME) return original.apply(this, args);
    const first = args[0];
    seen.roundTrips++;
    if (first instanceof PipelinedQuery && first.begins) seen.push('begin');
    const text = typeof first === 'string' ? first : (first as { text?: string })?.text;
    seen.push(String(text ?? ''));
    if (first instanceof PipelinedQuery && first.commits) seen.push('commit');
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    prototype.query = original;
  }
  return seen;
}
