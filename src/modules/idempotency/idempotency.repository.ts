/** All SQL on idempotency keys. */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, IdempotencyKeysTable } from '../../db/types.js';
import { ago } from '../../db/db-clock.js';
import { write } from '../../db/write-batch.js';

export type IdempotencyRow = Selectable<IdempotencyKeysTable>;

export function idempotencyRepository(db: Kysely<DB>) {
  const where = (scope: string, key: string) =>
    db.updateTable('idempotency_keys').where('scope', '=', scope).where('key', '=', key);

  return {
    /**
     * Claims the key for a new request: the claim's stamp (its `locked_at`, which only this
     * claim's writes may name), or undefined when a row for it already exists.
     */
    async claim(scope: string, key: string, fingerprint: string): Promise<Date | undefined> {
      const row = await db
        .insertInto('idempotency_keys')
        .values({ scope: scope, key, fingerprint, status: 'running' })
        .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
        .returning('locked_at')
        .executeTakeFirst();
      return row?.locked_at;
    },

    async find(scope: string, key: string): Promise<IdempotencyRow | undefined> {
      return db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('scope', '=', scope)
        .where('key', '=', key)
        .executeTakeFirst();
    },

    /**
     * Takes over a request that looks dead (still running after `staleMs`): the new claim's
     * stamp, or undefined when it is not stale (or is gone).
     */
    async takeOver(scope: string, key: string, staleMs: number): Promise<Date | undefined> {
      const row = await where(scope, key)
        .set({ locked_at: new Date() })
        .where('status', '=', 'running')
        .where('locked_at', '<', sql<Date>`now() - ${`${staleMs} milliseconds`}::interval`)
        .returning('locked_at')
        .executeTakeFirst();
      return row?.locked_at;
    },

    /**
     * Stores the response of the claim stamped `claimedAt`; called inside the transaction
     * that made it, when there is one (with the rest of its write batch, db/write-batch.ts).
     * A claim another request has taken over since (a retry, after STALE_MS) fails the
     * statement, and with it that transaction, by writing a status the table refuses
     * (`idempotency_keys_status_check`): read back, a missing row could not stop a batch that
     * commits in the same message, and the request and its retry both booked.
     */
    async complete(
      scope: string,
      key: string,
      claimedAt: Date,
      status: number,
      body: unknown,
    ): Promise<void> {
      await write(
        db,
        where(scope, key).set({
          status: sql<'done'>`case when status = 'running' and locked_at = ${claimedAt}
            then 'done' else 'taken over' end`,
          response_status: status,
          response_body: JSON.stringify(body),
        }),
      );
    },

    /** Gives the key up, if the claim stamped `claimedAt` still holds it. */
    async forget(scope: string, key: string, claimedAt: Date): Promise<void> {
      await db
        .deleteFrom('idempotency_keys')
        .where('scope', '=', scope)
        .where('key', '=', key)
        .where('status', '=', 'running')
        .where('locked_at', '=', claimedAt)
        .execute();
    },

    /**
     * Deletes up to `limit` keys older than `ageMs` (their stored answers: orders, with their
     * customers): past their lifetime a replay finds none anyway. Returns how many went.
     */
    async prune(ageMs: number, limit: number): Promise<number> {
      const result = await db
        .deleteFrom('idempotency_keys')
        .where((eb) =>
          eb(
            eb.refTuple('scope', 'key'),
            'in',
            eb
              .selectFrom('idempotency_keys')
              .select(['scope', 'key'])
              .where('created_at', '<', ago(ageMs))
              .orderBy('created_at')
              .limit(limit)
              .forUpdate()
              .skipLocked()
              .$asTuple('scope', 'key'),
          ),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Removes one expired key so it can be used afresh. */
    async expire(scope: string, key: string, olderThanMs: number): Promise<boolean> {
      const result = await db
        .deleteFrom('idempotency_keys')
        .where('scope', '=', scope)
        .where('key', '=', key)
        .where('created_at', '<', sql<Date>`now() - ${`${olderThanMs} milliseconds`}::interval`)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
