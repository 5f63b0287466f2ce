/**
 * node-postgres's query in its callback form, as a promise of our own. Called without a
 * callback, `client.query` makes its promise and chains a `.catch` that rewrites errors'
 * stacks; measured (docs/performance.md, issue 27, seventh pass), every row that form
 * returned outlived the next young-generation collection of V8 and was moved to the old
 * generation: a list page's rows, 30-38 KB per request, promoted, and a full mark of the
 * heap every few hundred requests to free them (the collector's threads were a quarter of
 * a list request's instructions). The same statement through the callback form promotes
 * nothing. Both forms run the same Query; only how its result is handed back differs.
 */
import type pg from 'pg';
import { DescribedQuery, mayReuseShape, type RowShapes } from './described-query.js';
import { PipelinedQuery, type Carried } from './pipelined-transaction.js';

type QueryFn = (...args: unknown[]) => unknown;

/** `client`'s own (prototype's) query, looked up at each call: instrumentation may wrap it later. */
export const protoQuery =
  (client: pg.ClientBase) =>
  (...args: unknown[]): unknown =>
    (Object.getPrototypeOf(client) as { query: QueryFn }).query.apply(client, args);

/**
 * Runs `config` (SQL text or a query config) with `values` through the callback form; SQL
 * text under `name` as a named statement. Text is given to node-postgres as a `Query` built
 * from it: a config object is copied by node-postgres property by property (its
 * `cloneQueryConfig`, 1.6 % of a one-order request's CPU profile), a Query is run as given.
 * With `carried`, SQL text goes out with its transaction's BEGIN or the setting that forces
 * the generic plan ahead of it and/or COMMIT after it (pipelined-transaction.ts). A named
 * statement is described once on the client's connection (described-query.ts): one
 * `callbackQuery` per client.
 */
export function callbackQuery(
  client: pg.ClientBase,
): (
  config: string | pg.QueryConfig,
  values?: unknown[],
  name?: string,
  carried?: Carried,
) => Promise<pg.QueryResult> {
  const query = protoQuery(client);
  const shapes: RowShapes = new Map();
  return (config, values, name, carried) =>
    new Promise((resolve, reject) => {
      const callback = (error: Error | null | undefined, result: unknown) =>
        error ? reject(error) : resolve(result as pg.QueryResult);
      if (typeof config !== 'string') {
        // node-postgres may write the callback into a config object it is given (8.23 copies
        // it first): a copy keeps the caller's object as it was, a plain query again.
        query({ ...config }, values, callback);
        return;
      }
      const submittable = carried
        ? new PipelinedQuery(config, values, callback, carried)
        : new DescribedQuery(config, values, callback);
      if (name !== undefined) {
        // The name a config object would carry (QueryConfig.name), read by Query when it runs.
        (submittable as { name?: string }).name = name;
        const inTransaction = carried?.begins === true || client.getTransactionStatus() !== 'I';
        if (mayReuseShape(config, inTransaction, carried?.commits === true))
          submittable.shapes = shapes;
      }
      query(submittable);
    });
}

/**
 * Whether a call to `client.query` is the plain form (SQL text or a config object, and
 * values) that returns a promise: not a submittable (a cursor), not given a callback.
 */
export function isPlainQuery(args: readonly unknown[]): boolean {
  const [config, values] = args;
  if (args.length > 2 || (values !== undefined && !Array.isArray(values))) return false;
  if (typeof config === 'string') return true;
  return (
    typeof config === 'object' &&
    config !== null &&
    typeof (config as { submit?: unknown }).submit !== 'function' &&
    typeof (config as { callback?: unknown }).callback !== 'function'
  );
}
