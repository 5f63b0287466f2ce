/**
 * Writes sent together. Inside `inOneStatement`, the writes repositories hand to `write`
 * (inserts and updates whose result nothing reads before the transaction ends) are
 * collected and sent as one statement when the work is done: each one a data-modifying
 * CTE of the last (`with w0 as (insert ...), w1 as (insert ...) update ...`). A booking
 * thus pays one round trip for its order, items, domain events, email and idempotency
 * record instead of one each. Outside it, `write` runs the query at once, so a repository
 * is written the same way for both.
 *
 * What PostgreSQL guarantees makes this safe: the statement is all or nothing like the
 * transaction around it, foreign keys are checked when it ends (an item may name the order
 * inserted beside it), and its parts cannot see each other's rows, which is why only
 * writes nobody reads back belong here.
 */
import { sql, type Compilable, type OperationNodeSource } from 'kysely';
import type { Executor, Tx } from './unit-of-work.js';

type WriteQuery = Compilable & OperationNodeSource & { execute(): Promise<unknown> };

const pending = new WeakMap<Executor, WriteQuery[]>();

/** Runs `query` now, or with the rest of the open batch of `db`'s transaction. */
export async function write(db: Executor, query: WriteQuery): Promise<void> {
  const batch = pending.get(db);
  if (batch) batch.push(query);
  else await query.execute();
}

/**
 * Runs `work` on `tx`, sending the writes it hands to `write` as one statement when it
 * is done (and none if it throws: the transaction is rolled back anyway).
 */
export async function inOneStatement<T>(tx: Tx, work: () => Promise<T>): Promise<T> {
  if (pending.has(tx)) return work();
  const batch: WriteQuery[] = [];
  pending.set(tx, batch);
  try {
    const result = await work();
    pending.delete(tx);
    await flush(tx, batch);
    return result;
  } finally {
    pending.delete(tx);
  }
}

async function flush(tx: Tx, batch: readonly WriteQuery[]): Promise<void> {
  if (batch.length === 0) return;
  const last = batch[batch.length - 1]!;
  if (batch.length === 1) return void (await last.execute());
  const ctes = batch.slice(0, -1).map((query, i) => sql`${sql.ref(`w${i}`)} as (${query})`);
  await sql`with ${sql.join(ctes, sql`, `)} ${last}`.execute(tx);
}
