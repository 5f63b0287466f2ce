/**
 * Prepared statements, chosen per query. A repository marks a query with `prepared`; on
 * PostgreSQL its SQL text is then sent as a named statement, parsed and planned once per
 * connection, and PostgreSQL may keep a generic plan for it. Only queries whose best plan
 * does not depend on their values are marked (a key lookup, a booking's seats and writes):
 * pgbench showed one order by id 3x faster prepared, while a generic plan made a skewed date
 * range 2-3x and a substring search 10x slower (docs/performance.md). List pages are marked
 * per shape, when no filter's plan depends on its value (db/list-source.ts).
 *
 * A statement a migration made outdated under a running instance (a rolling deploy adding
 * a column to a table it reads with `*`) is refused by PostgreSQL; its text then gets a new
 * name, prepared afresh on every connection. Outside a transaction the statement is sent
 * again at once; inside one, the transaction is aborted, and the error is one withRetry
 * (db/retry.ts) runs the transaction again for.
 */
import type { CompiledQuery } from 'kysely';
import type pg from 'pg';
import { callbackQuery, isPlainQuery, protoQuery } from './callback-query.js';
import { commits, TransactionEnds } from './pipelined-transaction.js';
import { isOutdatedPlan } from './retry.js';

/**
 * Statements a connection may hold prepared, by what marks them: each keeps its plan in
 * every PostgreSQL backend that ran it; list pages are prepared per query shape
 * (db/list-source.ts), which clients choose, and a booking's writes per shape (its rows of
 * each table, db/write-shapes.ts). Past these, a marked query runs unnamed, as any other.
 */
export const MAX_PREPARED = { reads: 64, writes: 32 } as const;
export type Budget = keyof typeof MAX_PREPARED;

const names = new Map<string, string>();
const marked = { reads: 0, writes: 0 };
let lastName = 0;

/**
 * Marks a compiled query's SQL as one to prepare, within `budget`'s count; returns it, to run
 * with `executeQuery` (compiled once: this is on the hot path of the requests it serves).
 */
export function prepared<T extends CompiledQuery>(query: T, budget: Budget = 'reads'): T {
  if (!names.has(query.sql) && marked[budget] < MAX_PREPARED[budget]) {
    marked[budget]++;
    names.set(query.sql, `booking_${++lastName}`);
  }
  return query;
}

/** A new name for `text`, whose statement is outdated wherever it was prepared. */
function renamed(text: string, outdatedName: string): string {
  // Another connection may have renamed it already.
  if (names.get(text) === outdatedName) names.set(text, `booking_${++lastName}`);
  return names.get(text)!;
}

/**
 * Makes a pool's clients send marked SQL as named statements (node-postgres parses a name
 * once per connection, then only binds and executes it). Every plain query goes through
 * node-postgres's callback form (db/callback-query.ts: its promise form kept the rows alive
 * into V8's old generation), and a transaction's `begin` and `commit` go out with its first
 * and last statements where they can (db/pipelined-transaction.ts): a statement with
 * parameters carries them, unless it is named and not yet parsed on the connection.
 */
export function prepareMarkedStatements(pool: Pick<pg.Pool, 'on'>): void {
  pool.on('connect', (client) => {
    const passThrough = protoQuery(client);
    const query = callbackQuery(client);
    const ends = new TransactionEnds((text) => query(text));
    /** Names this connection has run: their Parse is not sent again. */
    const parsed = new Set<string>();
    /** `run` once a held begin is sent (none held: at once, no promise in between). */
    const afterBegin = (run: () => Promise<pg.QueryResult>) =>
      ends.held ? ends.flush().then(run) : run();
    /** A statement with parameters: with the held begin when it can carry it, and its COMMIT. */
    const send = (text: string, values: unknown[], name: string | undefined) => {
      const commit = commits(text);
      const begins = ends.carry(name === undefined || parsed.has(name));
      const run = () =>
        query(text, values, name, begins || commit ? { begins, commits: commit } : undefined).then(
          (result) => {
            if (name !== undefined) parsed.add(name);
            if (commit) ends.committed = true;
            return result;
          },
        );
      return begins ? run() : afterBegin(run);
    };
    const named = (
      text: string,
      values: unknown[],
      name: string,
      again = false,
    ): Promise<pg.QueryResult> => {
      // Read before sending: the status after a failure may still be the one before it (an
      // error is handed over before the ReadyForQuery that follows it is read).
      const inTransaction = ends.held || client.getTransactionStatus() !== 'I';
      return send(text, values, name).catch((error: unknown) => {
        if (again || !isOutdatedPlan(error)) throw error;
        const fresh = renamed(text, name);
        // Now aborted: the transaction is run again (db/retry.ts).
        if (inTransaction) throw error;
        return named(text, values, fresh, true);
      });
    };
    Object.defineProperty(client, 'query', {
      configurable: true,
      value: (...args: unknown[]) => {
        if (!isPlainQuery(args)) {
          // Ahead of it in node-postgres's queue; a failed BEGIN fails what follows too.
          if (ends.held) void ends.flush().catch(() => undefined);
          return passThrough(...args);
        }
        const [text, values] = args as [string | pg.QueryConfig, unknown[] | undefined];
        const answer = ends.answer(text, values);
        if (answer) return answer;
        if (typeof text !== 'string' || !values) return afterBegin(() => query(text, values));
        const name = names.get(text);
        if (name !== undefined) return named(text, values, name);
        // Without parameters node-postgres uses the simple protocol: nothing rides along.
        if (values.length === 0) return afterBegin(() => query(text, values));
        return send(text, values, undefined);
      },
    });
  });
}
