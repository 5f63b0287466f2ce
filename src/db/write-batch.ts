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
 */
import { sql, type Compilable, type OperationNodeSource } from 'kysely';
import type { Executor, Tx } from './unit-of-work.js';

type WriteQuery = Compilable & OperationNodeSource & { execute(): Promise<unknown> };

declare const deferring: unique symbol;

/** A transaction whose writes through `write` wait for the end of `inOneStatement`. */
export type BatchTx = Tx & { readonly [deferring]: true };

const pending = new WeakMap<Executor, WriteQuery[]>();

/** Runs `query` now, or, on a `BatchTx`, with the rest of its batch. */
export async function write(db: Executor, query: WriteQuery): Promise<void> {
  const batch = pending.get(db);
  if (batch) batch.push(query);
  else await query.execute();
}

/**
 * Runs `work` on a `BatchTx` of `tx`, sending the writes it hands to `write` as one
 * statement when it is done (and none if it throws: the transaction is rolled back anyway).
 * The batch is its own handle on the transaction (Kysely's `withTables` copies one as is),
 * so only writes made through it are deferred, never those made through `tx`.
 */
export async function inOneStatement<T>(tx: Tx, work: (batch: BatchTx) => Promise<T>): Promise<T> {
  if (pending.has(tx)) return work(tx as BatchTx);
  const batch = tx.withTables<Record<never, never>>() as BatchTx;
  const writes: WriteQuery[] = [];
  pending.set(batch, writes);
  try {
    const result = await work(batch);
    pending.delete(batch);
    await flush(tx, writes);
    return result;
  } finally {
    pending.delete(batch);
  }
}
async function flush(tx: Tx, batch: readonly WriteQuery[]): Promise<void> {
  if (batch.length === 0) return;
  const last = batch[batch.length - 1]!;
  if (batch.length === 1) return void (await last.execute());
  const ctes = batch.slice(0, -1).map((query, i) => sql`${sql.ref(`w${i}`)} as (${query})`);
  await sql`with ${sql.join(ctes, sql`, `)} ${last}`.execute(tx);
}
