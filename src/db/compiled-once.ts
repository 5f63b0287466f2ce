/**
 * Queries whose SQL text never changes, only their values (a lookup by key): built and
 * compiled by Kysely once per database handle, then only bound. Building the operation tree
 * and walking it to SQL was most of Kysely's share of a read's Node time (issue 27,
 * docs/performance.md). The query is built with placeholder values; each call binds its own,
 * as many as the placeholders.
 */
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { DB } from './types.js';

export function compiledOnce<R>(
  build: (db: Kysely<DB>) => Compilable<R>,
): (db: Kysely<DB>, parameters: readonly unknown[]) => CompiledQuery<R> {
  // Per handle: a transaction's or the query recorder's Kysely compiles its own.
  const compiled = new WeakMap<Kysely<DB>, CompiledQuery<R>>();
  return (db, parameters) => {
    let query = compiled.get(db);
    if (query === undefined) {
      query = build(db).compile();
      compiled.set(db, query);
    }
    if (parameters.length !== query.parameters.length)
      throw new Error(`${query.parameters.length} values wanted, ${parameters.length} given`);
    return { ...query, parameters };
  };
}
