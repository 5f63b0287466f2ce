/**
 * A transaction's BEGIN sent with its first statement (db/pipelined-begin.ts), on a real
 * server: the statement runs inside the transaction (a rollback undoes it, another
 * connection does not see it before the commit), one round trip fewer; a transaction with
 * no statement sends nothing; a failing first statement leaves the connection as clean as a
 * failing statement after a BEGIN of its own did; what cannot carry the BEGIN (a statement
 * without parameters, a named statement) still runs inside the transaction.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { prepared } from '../../src/db/prepared.js';
import { inTransaction } from '../../src/db/unit-of-work.js';
import { createTestDatabase } from '../helpers/database.js';
import { countStatements } from '../helpers/statement-counter.js';

let database: Database;
beforeAll(async () => {
  // Two connections: one in the transaction, one looking from outside.
  database = await createTestDatabase({ poolSize: 2 });
  await sql`create table probe (n integer primary key)`.execute(database.db);
});
afterAll(async () => database.close());

const rows = async () =>
  (await sql<{ n: number }>`select n from probe order by n`.execute(database.db)).rows.map(
    (r) => r.n,
  );
const insert = (db: Database['db'], n: number) => sql`insert into probe values (${n})`.execute(db);
const rollback = new Error('roll back');

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
    const open = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
       where datname = current_database() and state like 'idle in transaction%'`.execute(
      database.db,
    );
    expect(open.rows[0]!.n).toBe(0);
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
});
