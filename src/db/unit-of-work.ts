/**
 * Units of work. A service function that writes opens one transaction with `inTransaction`
 * and passes the `Tx` down: repository and facade functions that must run inside a
 * transaction take a `Tx` (the pool will not type-check there), and read-only ones take any
 * `Executor`. Nothing inside a unit of work reaches for the pool: the embedded database has
 * one connection, so such a query would wait for the transaction that is waiting for it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from './types.js';
import { withRetry } from './retry.js';

/** The pool or a transaction: what a read may run on. */
export type Executor = Kysely<DB>;
/** An open transaction: what a write that must be atomic with others runs on. */
export type Tx = Transaction<DB>;

/** What to do once the transaction under way has committed (per attempt: a retry starts empty). */
const committing = new AsyncLocalStorage<(() => void)[]>();

/** Runs `work` in one transaction, retried when PostgreSQL breaks a deadlock. */
export function inTransaction<T>(db: Executor, work: (tx: Tx) => Promise<T>): Promise<T> {
  return withRetry(async () => {
    const after: (() => void)[] = [];
    const result = await committing.run(after, () => db.transaction().execute(work));
    for (const done of after) done();
    return result;
  });
}

/**
 * Runs `done` once the transaction this code runs in has committed, and never if it rolls
 * back (counters of what really happened: metrics/). Outside a transaction, at once.
 */
export function afterCommit(done: () => void): void {
  const after = committing.getStore();
  if (after) after.push(done);
  else done();
}
