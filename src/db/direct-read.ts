/**
 * A compiled statement run straight on the pool, outside any transaction: what
 * `db.executeQuery` does for it (take a connection, run the statement, give the connection
 * back), without Kysely's ten layers of async functions around it (its executor, connection
 * provider, runtime driver, dialect driver and result transform: 2.4 % of one order's
 * on-CPU time, issue 27). The statement still goes through the pool clients' wrapper
 * (pool-clients.ts), so a marked one is sent as a named statement. Kysely stays the way in
 * for everything else: a handle that is a transaction, or that no pool was registered for,
 * gets `executeQuery` itself.
 */
import type { CompiledQuery, Kysely } from 'kysely';
import type pg from 'pg';

const pools = new WeakMap<object, pg.Pool>();

/** `db` runs on `pool` with no plugin, logger or transform of Kysely's to apply. */
export function registerDirectReads(db: object, pool: pg.Pool): void {
  pools.set(db, pool);
}

/** The rows of `query` on `db`, the way `db.executeQuery(query)` gives them. */
export async function readRows<Row>(
  db: Pick<Kysely<never>, 'executeQuery'>,
  query: CompiledQuery<Row>,
): Promise<Row[]> {
  const pool = pools.get(db);
  if (!pool) return (await db.executeQuery(query)).rows;
  const client = await pool.connect();
  try {
    // A copy, as Kysely sends: node-postgres may convert the values it is given in place.
    return (await client.query(query.sql, [...query.parameters])).rows as Row[];
  } finally {
    client.release();
  }
}
