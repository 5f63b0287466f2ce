/**
 * Prepared statements, chosen per query. A repository marks a query with `prepared`; on
 * PostgreSQL its SQL text is then sent as a named statement, parsed and planned once per
 * connection, and PostgreSQL may keep a generic plan for it. Only queries whose best plan
 * does not depend on their values are marked (a key lookup): pgbench showed one order by
 * id 3x faster prepared, while a generic plan made a skewed date range 2-3x and a
 * substring search 10x slower (docs/performance.md). List pages are marked per shape, when
 * no filter's plan depends on its value (db/list-source.ts); statements inside transactions
 * never are (an outdated statement could not be retried there).
 */
import type { CompiledQuery } from 'kysely';
import type pg from 'pg';
import { callbackQuery, isPlainQuery, protoQuery } from './callback-query.js';

const names = new Map<string, string>();

/**
 * Statements a connection may hold prepared: each keeps its plan in every PostgreSQL
 * backend that ran it, and list pages are prepared per query shape (db/list-source.ts),
 * which clients choose. Past this many, a marked query runs unnamed, as any other.
 */
export const MAX_PREPARED = 64;

/**
 * Marks a compiled query's SQL as one to prepare; returns it, to run with `executeQuery`
 * (compiled once: this is on the hot path of the reads it serves).
 */
export function prepared<T extends CompiledQuery>(query: T): T {
  if (!names.has(query.sql) && names.size < MAX_PREPARED)
    names.set(query.sql, `booking_${names.size + 1}`);
  return query;
}

/**
 * PostgreSQL refuses to run a prepared statement whose result columns changed under it (a
 * migration added a column to a table it reads with `*`): "cached plan must not change
 * result type".
 */
const outdated = (error: unknown) =>
  (error as { code?: string }).code === '0A000' &&
  /cached plan must not change result type/.test((error as Error).message);

/**
 * Makes a pool's clients send marked SQL as named statements (node-postgres parses a name
 * once per connection, then only binds and executes it). A statement a migration made
 * outdated is sent again unnamed, and unnamed on that connection from then on; marked
 * queries run outside transactions, so the retry is allowed. Every plain query goes through
 * node-postgres's callback form (db/callback-query.ts: its promise form kept the rows alive
 * into V8's old generation).
 */
export function prepareMarkedStatements(pool: Pick<pg.Pool, 'on'>): void {
  pool.on('connect', (client) => {
    const passThrough = protoQuery(client);
    const query = callbackQuery(client);
    const stale = new Set<string>();
    Object.defineProperty(client, 'query', {
      configurable: true,
      value: (...args: unknown[]) => {
        if (!isPlainQuery(args)) return passThrough(...args);
        const [text, values] = args as [string | pg.QueryConfig, unknown[] | undefined];
        const name = typeof text === 'string' ? names.get(text) : undefined;
        if (typeof text !== 'string' || name === undefined || stale.has(name) || !values)
          return query(text, values);
        return query(text, values, name).catch((error: unknown) => {
          if (!outdated(error)) throw error;
          stale.add(name);
          return query(text, values);
        });
      },
    });
  });
}
