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
 * (db/retry.ts) runs the transaction again for. The names are handed to node-postgres by
 * the pool's client hook (db/pool-clients.ts).
 *
 * A list page is also marked to run with PostgreSQL's generic plan (`plan: 'generic'`): its
 * plan does not depend on its values, which is why it is named, but PostgreSQL decides per
 * execution by comparing estimated costs, and for a value whose statistics differ from the
 * average (the largest seller's substring search: a custom plan estimated 3 % cheaper) it
 * kept planning every execution afresh, 0.6 ms of its 3-4 ms (docs/performance.md, issue 27,
 * twentieth pass). The pool clients send such a statement after a setting that forces the
 * generic plan until the end of its message (db/pipelined-transaction.ts).
 */
import type { CompiledQuery } from 'kysely';

/**
 * Statements a connection may hold prepared, by what marks them: each keeps its plan in
 * every PostgreSQL backend that ran it; list pages are prepared per query shape
 * (db/list-source.ts), which clients choose, and a booking's writes per shape (its rows of
 * each table, db/write-shapes.ts). Past these, a marked query runs unnamed, as any other.
 */
export const MAX_PREPARED = { reads: 64, writes: 32 } as const;
export type Budget = keyof typeof MAX_PREPARED;

const names = new Map<string, string>();
/** Marked SQL texts to run with the generic plan. */
const generic = new Set<string>();
const marked = { reads: 0, writes: 0 };
let lastName = 0;

/**
 * Marks a compiled query's SQL as one to prepare, within `budget`'s count; returns it, to run
 * with `executeQuery` (compiled once: this is on the hot path of the requests it serves).
 * `plan: 'generic'`: run with PostgreSQL's generic plan, never planned for its values.
 */
export function prepared<T extends CompiledQuery>(
  query: T,
  budget: Budget = 'reads',
  options: { plan?: 'generic' } = {},
): T {
  if (!names.has(query.sql) && marked[budget] < MAX_PREPARED[budget]) {
    marked[budget]++;
    names.set(query.sql, `booking_${++lastName}`);
    if (options.plan === 'generic') generic.add(query.sql);
  }
  return query;
}

/** Whether marked SQL text runs with the generic plan. */
export const wantsGenericPlan = (text: string): boolean => generic.has(text);

/** The statement name of marked SQL text (undefined: not marked, sent unnamed). */
export const nameOf = (text: string): string | undefined => names.get(text);

/** A new name for `text`, whose statement is outdated wherever it was prepared. */
export function renamed(text: string, outdatedName: string): string {
  // Another connection may have renamed it already.
  if (names.get(text) === outdatedName) names.set(text, `booking_${++lastName}`);
  return names.get(text)!;
}
