/**
 * A transaction's BEGIN sent with its first statement and a batched transaction's COMMIT with
 * its last (db/pipelined-transaction.ts), on a real server: the statement runs inside the
 * transaction (a rollback undoes it, another connection does not see it before the commit),
 * one round trip fewer; a transaction with no statement sends nothing; a failing first
 * statement leaves the connection as clean as a failing statement after a BEGIN of its own
 * did; what cannot carry the BEGIN (a statement without parameters, a named statement not yet
 * parsed) still runs inside the transaction. A batch that fails is not committed, nor is one
 * whose COMMIT fails, and its caller gets the error either way.
 *
 * @isolated The named statement below must be one: the prepared statements' budget is the
 * process's (db/prepared.ts), and files run earlier in a shared worker may have spent it,
 * which left the statement unnamed, able to carry the BEGIN (4 statements in 3 round trips).
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { nameOf, prepared } from '../../src/db/prepared.js';
import { inTransaction } from '../../src/db/unit-of-work.js';
import { inBatchedTransaction, write, type BatchTx } from '../../src/db/write-batch.js';
import { createTestDatabase } from '../helpers/database.js';
import { countStatements } from '../helpers/statement-counter.js';

let database: Database;
beforeAll(async () => {
  // Two connections: one in the transaction, one looking from outside.
  database = await createTestDatabase({ poolSize: 2 });
  await sql`create table probe (n integer primary key)`.execute(database.db);
  // Checked at COMMIT: a duplicate passes the statement and fails the commit.
  await sql`create table deferred_probe (n integer unique deferrable initially deferred)`.execute(
    database.db,
  );
});
afterAll(async () => database.close());

const rows = async () =>
  (await sql<{ n: number }>`select n from probe order by n`.execute(database.db)).rows.map(
    (r) => r.n,
  );
/** A batch inserting `values` into `table`, three times, refused each time as a duplicate. */
async function failsThrice(table: 'probe' | 'deferred_probe', values: number[]) {
  for (let i = 0; i < 3; i++)
    await expect(
      inBatchedTransaction(database.db, async (batch) => {
        for (const n of values) await write(batch, probes(batch).insertInto(table).values({ n }));
      }),
    ).rejects.toMatchObject({ code: '23505' });
}
/** Connections of this database left inside a transaction. */
const openTransactions = async () =>
  (
    await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
       where datname = current_database() and state like 'idle in transaction%'`.execute(
      database.db,
    )
  ).rows[0]!.n;
const insert = (db: Database['db'], n: number) => sql`insert into probe values (${n})`.execute(db);
const rollback = new Error('roll back');
/** The batch's handle, typed with this file's tables. */
const probes = (batch: BatchTx) =>
  batch as unknown as Kysely<{ probe: { n: number }; deferred_probe: { n: number } }>;

describe('BEGIN with the first statement', () => {
  it('runs the first statement inside the transaction, in one round trip fewer', async () => {
    let seenOutside: number[] = [];
    const statements = await countStatements(() =>
      inTransaction(database.db, async (tx) => {
        await insert(tx, 1);
        seenOutside = await rows();
        await insert(tx, 2);
      }),
    );
    expect(seenOutside).toEqual([]);
    expect(await rows()).toEqual([1, 2]);
    expect(statements.map((s) => s.split(' ')[0])).toEqual([
      'begin',
      'insert',
      'select',
      'insert',
      'commit',
    ]);
    // BEGIN and the first insert went out together; the look from outside is its own.
    expect(statements.roundTrips).toBe(4);

    await expect(
      inTransaction(database.db, async (tx) => {
        await insert(tx, 3);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await rows()).toEqual([1, 2]);
  });

  it('sends nothing for a transaction without statements', async () => {
    const statements = await countStatements(async () => {
      await inTransaction(database.db, async () => 'nothing');
      await expect(
        inTransaction(database.db, async () => {
          throw rollback;
        }),
      ).rejects.toBe(rollback);
    });
    expect([...statements]).toEqual([]);
    expect(statements.roundTrips).toBe(0);
  });

  it('leaves the connection clean after a failing first statement', async () => {
    for (let i = 0; i < 3; i++) {
      await expect(
        inTransaction(database.db, async (tx) => {
          await insert(tx, 1);
        }),
      ).rejects.toMatchObject({ code: '23505' });
    }
    // Every connection of the pool is idle again and takes the next transaction.
    await Promise.all(
      [10, 11].map((n) =>
        inTransaction(database.db, async (tx) => {
          await insert(tx, n);
          await sql`select pg_sleep(0.05)`.execute(tx);
        }),
      ),
    );
    expect(await rows()).toEqual([1, 2, 10, 11]);
    expect(await openTransactions()).toBe(0);
  });

  it('sends BEGIN apart ahead of a statement without parameters, or a named one, still inside', async () => {
    await expect(
      inTransaction(database.db, async (tx) => {
        await sql.raw('insert into probe values (20); insert into probe values (21)').execute(tx);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    const named = prepared(
      database.db
        .selectFrom(sql<{ n: number }>`probe`.as('p'))
        .select(sql<number>`count(*)::int`.as('n'))
        .where(sql.ref('n'), '>', 0)
        .compile(),
    );
    expect(nameOf(named.sql)).toBeDefined();
    const statements = await countStatements(() =>
      expect(
        inTransaction(database.db, async (tx) => {
          const { rows: counted } = await tx.executeQuery(named);
          await insert(tx, 22);
          expect(counted).toEqual([{ n: 4 }]);
          throw rollback;
        }),
      ).rejects.toBe(rollback),
    );
    expect(statements.length).toBe(statements.roundTrips);
    expect(await rows()).toEqual([1, 2, 10, 11]);
  });

  it('commits a batched transaction with its writes, in one message with its BEGIN', async () => {
    const batched = (n: number) =>
      countStatements(() =>
        inBatchedTransaction(database.db, async (batch) => {
          await write(batch, probes(batch).insertInto('probe').values({ n }));
          await write(
            batch,
            probes(batch)
              .insertInto('probe')
              .values({ n: n + 1 }),
          );
        }),
      );
    // The batch is a prepared statement: its first run on a connection parses it, with
    // BEGIN sent ahead; from then on (the pool hands back the connection used last) BEGIN,
    // the writes and COMMIT are one message.
    const first = await batched(30);
    expect(first.map((s) => s.split(' ')[0])).toEqual(['begin', 'with', 'commit']);
    expect(first.roundTrips).toBe(2);
    const next = await batched(32);
    expect(next.map((s) => s.split(' ')[0])).toEqual(['begin', 'with', 'commit']);
    expect(next.roundTrips).toBe(1);
    expect(await rows()).toEqual([1, 2, 10, 11, 30, 31, 32, 33]);
  });

  it('commits nothing of a failing batch, and answers with its error', async () => {
    await failsThrice('probe', [40, 1]);
    expect(await rows()).toEqual([1, 2, 10, 11, 30, 31, 32, 33]);
  });

  it('commits nothing when COMMIT itself fails, and answers with its error', async () => {
    const deferred = async () =>
      (
        await sql<{ n: number }>`select n from deferred_probe order by n`.execute(database.db)
      ).rows.map((r) => r.n);
    await failsThrice('deferred_probe', [7, 7]);
    expect(await deferred()).toEqual([]);
    // The connections are clean: the next batched transactions commit.
    await Promise.all(
      [8, 9].map((n) =>
        inBatchedTransaction(database.db, async (batch) => {
          await write(batch, probes(batch).insertInto('deferred_probe').values({ n: n }));
        }),
      ),
    );
    expect(await deferred()).toEqual([8, 9]);
    expect(await openTransactions()).toBe(0);
  });
});
