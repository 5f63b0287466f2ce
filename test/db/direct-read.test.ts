/**
 * Reads straight on the pool (src/db/direct-read.ts), on either database: the rows
 * `executeQuery` gives, a transaction's handle still read inside its transaction (it sees
 * its own uncommitted writes), and the connection given back after a failing statement.
 */
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { readRows } from '../../src/db/direct-read.js';
import { prepared } from '../../src/db/prepared.js';
import { createTestDatabase } from '../helpers/database.js';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase({ poolSize: 2 });
  await sql`create table direct_probe (n integer primary key, label text)`.execute(database.db);
  await sql`insert into direct_probe values (1, 'one'), (2, 'two')`.execute(database.db);
});
afterAll(async () => database.close());

const select = (min: number) =>
  CompiledQuery.raw('select n, label from direct_probe where n >= $1 order by n', [
    min,
  ]) as CompiledQuery<{ n: number; label: string }>;

describe('readRows', () => {
  it('gives the rows executeQuery gives, plain and as a named statement', async () => {
    const expected = (await database.db.executeQuery(select(2))).rows;
    expect(expected).toEqual([{ n: 2, label: 'two' }]);
    expect(await readRows(database.db, select(2))).toEqual(expected);
    const named = prepared(
      CompiledQuery.raw('select count(*)::int as c from direct_probe where n > $1', [0]),
    );
    expect(await readRows(database.db, named)).toEqual([{ c: 2 }]);
    expect(await readRows(database.db, { ...named, parameters: [1] })).toEqual([{ c: 1 }]);
  });

  it("reads a transaction's handle inside the transaction", async () => {
    await database.db
      .transaction()
      .execute(async (tx) => {
        await sql`insert into direct_probe values (3, 'three')`.execute(tx);
        expect((await readRows(tx, select(3))).map((r) => r.n)).toEqual([3]);
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).toBe('roll back'));
    expect(await readRows(database.db, select(3))).toEqual([]);
  });

  it('gives the connection back after a failing statement', async () => {
    for (let i = 0; i < 5; i++) {
      await expect(
        readRows(database.db, CompiledQuery.raw('select n from no_such_table where n = $1', [1])),
      ).rejects.toMatchObject({ code: '42P01' });
    }
    expect(database.poolStats()).toMatchObject({ inUse: 0, waiting: 0 });
    expect(await readRows(database.db, select(1))).toHaveLength(2);
  });
});
