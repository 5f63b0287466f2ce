/**
 * Statements of one fixed shape compiled once. `statement(build)` builds the Kysely query
 * with a placeholder for each value (`slot.name`), compiles it on first use, and afterwards
 * only binds values in the placeholders' places: for a statement on a hot path whose text
 * never varies (a booking taking its seats), where building and compiling the query through
 * Kysely each time cost more than running it. The query is still written in Kysely, once.
 *
 * A placeholder is an object Kysely passes through as a parameter as it is; one that would
 * end up in the text instead (or be dropped) is an error on first use.
 *
 * Compiled once for every handle, transactions included (a booking runs in a new one each
 * time): all of the service's handles compile with Kysely's PostgreSQL compiler (pg and
 * PGlite alike, db/database.ts; the query recorder too), so the text is the same. A handle
 * with plugins, which rewrite the query before it is compiled, compiles it every time.
 */
import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { DB } from './types.js';

class Slot {
  constructor(readonly name: string) {}
}

/**
 * `bind(db, values)`: the statement's compiled query with `values` bound. `build` is handed
 * placeholders typed as the values, so the query type-checks as if written with them.
 */
export function statement<V extends object, R>(build: (db: Kysely<DB>, slots: V) => Compilable<R>) {
  let shared: CompiledQuery<R> | undefined;
  const slots = new Proxy({} as V, { get: (_, name) => new Slot(String(name)) });
  return (db: Kysely<DB>, values: V): CompiledQuery<R> => {
    const plain = db.getExecutor().plugins.length === 0;
    let compiled = plain ? shared : undefined;
    if (!compiled) {
      const query = build(db, slots).compile();
      const names = query.parameters.flatMap((p) => (p instanceof Slot ? [p.name] : []));
      const missing = Object.keys(values).filter((name) => !names.includes(name));
      if (missing.length > 0)
        throw new Error(`statement template: ${missing.join()} not bound as parameters`);
      if (plain) shared = query;
      compiled = query;
    }
    const parameters = compiled.parameters.map((p) =>
      p instanceof Slot ? (values as Record<string, unknown>)[p.name] : p,
    );
    return CompiledQuery.raw(compiled.sql, parameters);
  };
}
