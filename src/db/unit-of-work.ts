/**
 * Units of work. A service function that writes opens one transaction with `inTransaction`
 * and passes the `Tx` down: repository and facade functions that must run inside a
 * transaction take a `Tx` (the pool will not type-check there), and read-only ones take any
 * `Executor`. Nothing inside a unit of work reaches for the pool: the embedded database has
 * one connection, so such a query would wait for the transaction that is waiting for it.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DB } from './types.js';
import { withRetry } from './retry.js';

/** The pool or a transaction: what a read may run on. */
export type Executor = Kysely<DB>;
/** An open transaction: what a write that must be atomic with others runs on. */
export type Tx = Transaction<DB>;

/**
 * What to do once each open transaction has committed (per attempt: a retry is a new
 * transaction and starts empty). Keyed by the transaction rather than held in an
 * AsyncLocalStorage: on Node 20 one of those, once used, runs a hook on every promise of
 * every request (2-3 % of a read's main thread in issue 27's profile).
 */
const committing = new WeakMap<Tx, (() => void)[]>();

/** Runs `work` in one transaction, retried when PostgreSQL breaks a deadlock. */
export function inTransaction<T>(db: Executor, work: (tx: Tx) => Promise<T>): Promise<T> {
  return withRetry(async () => {
    const after: (() => void)[] = [];
    const result = await db.transaction().execute((tx) => {
      committing.set(tx, after);
      return work(tx);
    });
    for (const done of after) done();
    return result;
  });
}

/**
 * Runs `done` once `tx` has committed, and never if it rolls back (counters of what really
 * happened: metrics/). `tx` must be the one inTransaction opened: anything else is a
 * programming error, refused loudly rather than run at once or never.
 */
export function afterCommit(tx: Tx, done: () => void): void {
  const after = committing.get(tx);
  if (!after) throw new Error('afterCommit: not a transaction opened by inTransaction');
  after.push(done);
}

/** `handle` is another handle on `tx` (write-batch.ts's batch): what waits for tx's commit. */
export function sameTransaction(tx: Tx, handle: Tx): void {
  const after = committing.get(tx);
  if (after) committing.set(handle, after);
}
