/**
 * A Kysely instance that compiles queries exactly as the PostgreSQL one does but runs
 * none: it records them. The EXPLAIN tests and the benchmark's pgbench scripts take "the
 * SQL the API runs" from it, through the repositories themselves.
 */
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
} from 'kysely';
import type { DB } from './types.js';

export interface QueryRecorder {
  db: Kysely<DB>;
  /** Runs `work` against `db` and returns the queries it compiled, in order. */
  record(work: (db: Kysely<DB>) => Promise<unknown>): Promise<CompiledQuery[]>;
}

export function createQueryRecorder(): QueryRecorder {
  let recorded: CompiledQuery[] = [];
  const db = new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new PostgresIntrospector(kysely),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => {
      if (event.level === 'query') recorded.push(event.query);
    },
  });
  return {
    db,
    // One recording at a time: callers await each before starting the next.
    async record(work) {
      recorded = [];
      // The driver returns no rows, so work that reads a result may throw after compiling.
      await work(db).catch(() => undefined);
      const queries = recorded;
      recorded = [];
      return queries;
    },
  };
}
