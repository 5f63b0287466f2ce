/**
 * Statements of one fixed shape compiled once. `statement(build)` builds the Kysely query
 * with a placeholder for each value (`slot.name`), compiles it on first use, and afterwards
 * only binds values in the placeholders' places: for a statement on a hot path whose text
 * never varies (a booking taking its seats), where building and compiling the query through
 * Kysely each time cost more than running it. The query is still written in Kysely, once.
 *
 * A placeholder is an object Kysely passes through as a parameter as it is; one that would
 * end up in the text instead (or be dropped) is an error on first use. Compiled once per
 * database handle: a transaction's or the query recorder's Kysely may carry plugins of its
 * own that change the text.
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
  const byHandle = new WeakMap<Kysely<DB>, CompiledQuery<R>>();
  const slots = new Proxy({} as V, { get: (_, name) => new Slot(String(name)) });
  return (db: Kysely<DB>, values: V): CompiledQuery<R> => {
    let compiled = byHandle.get(db);
    if (!compiled) {
      const query = build(db, slots).compile();
      const names = query.parameters.flatMap((p) => (p instanceof Slot ? [p.name] : []));
      const missing = Object.keys(values).filter((name) => !names.includes(name));
      if (missing.length > 0)
        throw new Error(`statement template: ${missing.join()} not bound as parameters`);
      byHandle.set(db, query);
      compiled = query;
    }
    const parameters = compiled.parameters.map((p) =>
      p instanceof Slot ? (values as Record<string, unknown>)[p.name] : p,
    );
    return CompiledQuery.raw(compiled.sql, parameters);
  };
}
