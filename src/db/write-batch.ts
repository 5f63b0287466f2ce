/**
 * Writes sent together. `inOneStatement(tx, async (batch) => ...)` hands its work a
 * `BatchTx`: the same transaction, but the writes repositories hand to `write` on it
 * (inserts and updates whose result nothing reads before the transaction ends) are not run
 * when awaited: they are collected and sent as one statement when the work is done, each a
 * data-modifying CTE of the last (`with w0 as (insert ...), w1 as (insert ...) update ...`).
 * A booking thus pays one round trip for its order, items, domain events, email and
 * idempotency record instead of one each. On any other executor `write` runs the query at
 * once, so a repository is written the same way for both; the type says where deferral
 * happens: a function that takes a `BatchTx` may defer its writes, one that takes a `Tx`
 * may be handed one.
 *
 * What PostgreSQL guarantees makes this safe: the statement is all or nothing like the
 * transaction around it, foreign keys are checked when it ends (an item may name the order
 * inserted beside it), and its parts cannot see each other's rows, which is why only
 * writes nobody reads back belong here.
 *
 * The statement's text is compiled once per shape (write-shapes.ts): building and
 * compiling a booking's batch through Kysely was a sixth of a booking's Node time. It is
 * prepared per shape too (db/prepared.ts): inserts have one plan whatever their values, and
 * PostgreSQL parsed and planned a booking's five-table statement anew each time.
 */
import type { Insertable } from 'kysely';
import { prepared } from './prepared.js';
import type { DB } from './types.js';
import { inTransaction, sameTransaction, type Executor, type Tx } from './unit-of-work.js';
import { compiledWrite, insertShape, type KyselyWrite, type ShapedWrite } from './write-shapes.js';

declare const deferring: unique symbol;

/** A transaction whose writes through `write` wait for the end of `inOneStatement`. */
export type BatchTx = Tx & { readonly [deferring]: true };

const pending = new WeakMap<Executor, (KyselyWrite | ShapedWrite)[]>();

/** Runs `query` now, or, on a `BatchTx`, with the rest of its batch. */
export async function write(db: Executor, query: KyselyWrite | ShapedWrite): Promise<void> {
  const batch = pending.get(db);
  if (batch) batch.push(query);
  else await ('shape' in query ? query.query() : query).execute();
}

/**
 * Inserts rows into `table` (none: nothing): at once, or with the rest of a batch, whose
 * text is then reused for every insert of as many rows with the same columns.
 */
export async function insertRows<T extends keyof DB>(
  db: Executor,
  table: T,
  rows: readonly Insertable<DB[T]>[],
): Promise<void> {
  if (rows.length === 0) return;
  const query = () => db.insertInto(table).values(rows);
  await write(db, insertShape(table, rows, query) ?? query());
}

/**
 * Runs `work` on a `BatchTx` of `tx`, sending the writes it hands to `write` as one
 * statement when it is done (and none if it throws: the transaction is rolled back anyway).
 * The batch is its own handle on the transaction (Kysely's `withTables` copies one as is),
 * so only writes made through it are deferred, never those made through `tx`. With `last`,
 * nothing follows the statement in its transaction, which commits with it
 * (inBatchedTransaction).
 */
export async function inOneStatement<T>(
  tx: Tx,
  work: (batch: BatchTx) => Promise<T>,
  last = false,
): Promise<T> {
  if (pending.has(tx)) return work(tx as BatchTx);
  const batch = tx.withTables<Record<never, never>>() as BatchTx;
  sameTransaction(tx, batch);
  const writes: (KyselyWrite | ShapedWrite)[] = [];
  pending.set(batch, writes);
  try {
    const result = await work(batch);
    pending.delete(batch);
    if (writes.length > 0)
      await tx.executeQuery(prepared(compiledWrite(tx, writes, last), 'writes'));
    return result;
  } finally {
    pending.delete(batch);
  }
}

/**
 * Runs `work` in a transaction of its own whose writes through `write` go out as one
 * statement at its end, and the transaction's COMMIT in the same message
 * (db/pipelined-transaction.ts): a booking's round trips are its reads, its seats and this.
 * Retried as inTransaction retries.
 */
export function inBatchedTransaction<T>(
  db: Executor,
  work: (batch: BatchTx) => Promise<T>,
): Promise<T> {
  return inTransaction(db, (tx) => inOneStatement(tx, work, true));
}
