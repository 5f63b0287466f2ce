/**
 * A named statement described once per connection (db/described-query.ts), on a real
 * server: its first execution on a connection is described (PostgreSQL answers a
 * RowDescription), the later ones are not, and their rows (several, one, none) are read
 * exactly as a described execution reads them: the same values, parsed by the same type
 * parsers, under the same field names. A statement that returns no rows is described each
 * time and runs as before; another connection describes a name on its own. Rows with other
 * columns than the kept description (a pooler's other server connection, prepared after a
 * migration added a column) are refused as PostgreSQL refuses an outdated statement, and the
 * description is forgotten. What happens when a migration changes a prepared statement's
 * result under it on the same connection is prepared-statements.test.ts's.
 *
 * @isolated The statements below must be named: the prepared statements' budget is the
 * process's (db/prepared.ts), and files run earlier in a shared worker may have spent it.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { DescribedQuery, type RowShapes } from '../../src/db/described-query.js';
import { wrapPoolClients } from '../../src/db/pool-clients.js';
import { prepared } from '../../src/db/prepared.js';
import { isOutdatedPlan } from '../../src/db/retry.js';
import { createTestDatabase, databaseUrl, endPool } from '../helpers/database.js';

let database: Database;
let pool: pg.Pool;
let url: string;
beforeAll(async () => {
  database = await createTestDatabase({ poolSize: 1 });
  await sql`create table shaped (n integer primary key, at timestamptz, doc jsonb, label text)`.execute(
    database.db,
  );
  await sql`insert into shaped values
    (1, '2030-01-02T03:04:05.678Z', '{"a": [1, "b"]}', 'one'),
    (2, null, null, null),
    (3, '1999-12-31T23:59:59Z', '[]', 'three')`.execute(database.db);
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(
    database.db,
  );
  url = databaseUrl(rows[0]!.name);
  pool = new pg.Pool({ connectionString: url, max: 2 });
  wrapPoolClients(pool);
});
afterAll(async () => {
  await endPool(pool);
  await database.close();
});

/** How many RowDescriptions PostgreSQL sends this client from now on. */
function rowDescriptions(client: pg.PoolClient): () => number {
  let count = 0;
  (client as unknown as { connection: pg.Connection }).connection.on(
    'rowDescription',
    () => count++,
  );
  return () => count;
}

// Unmarked (the marked text has no comment): sent unnamed, described on every execution.
const TEXT = 'select n, at, doc, label from shaped where n >= $1 order by n -- unnamed';

describe('a named statement described once per connection', () => {
  it('reads every later answer, of many rows, one or none, as the described one', async () => {
    const client = await pool.connect();
    try {
      const marked = prepared(
        sql`select n, at, doc, label from shaped where n >= ${0} order by n`.compile(database.db),
      );
      // The same text unnamed: described on every execution, node-postgres's own reading.
      const reference = async (from: number) => client.query(TEXT, [from]);
      const described = rowDescriptions(client);
      const first = await client.query(marked.sql, [1]);
      expect(described()).toBe(1);
      expect(first.rows).toEqual((await reference(1)).rows);
      expect(described()).toBe(2);
      expect(first.rows[0]).toEqual({
        n: 1,
        at: (await reference(1)).rows[0].at,
        doc: { a: [1, 'b'] },
        label: 'one',
      });
      expect(first.rows[1]).toEqual({ n: 2, at: null, doc: null, label: null });

      const counted = described();
      for (const from of [1, 3, 4, 1]) {
        const again = await client.query(marked.sql, [from]);
        const expected = await reference(from);
        expect(again.rows).toEqual(expected.rows);
        expect(again.fields.map((f) => [f.name, f.dataTypeID])).toEqual(
          expected.fields.map((f) => [f.name, f.dataTypeID]),
        );
      }
      // Only the four reference queries were described.
      expect(described()).toBe(counted + 4);
    } finally {
      client.release();
    }
  });

  it('describes it again on another connection, and a statement without rows each time', async () => {
    const [one, two] = [await pool.connect(), await pool.connect()];
    try {
      const marked = prepared(sql`select label from shaped where n = ${0}`.compile(database.db));
      const onOne = rowDescriptions(one);
      const onTwo = rowDescriptions(two);
      for (let i = 0; i < 3; i++) {
        expect((await one.query(marked.sql, [3])).rows).toEqual([{ label: 'three' }]);
        expect((await two.query(marked.sql, [1])).rows).toEqual([{ label: 'one' }]);
      }
      expect([onOne(), onTwo()]).toEqual([1, 1]);

      const write = prepared(
        sql`update shaped set label = label where n = ${0}`.compile(database.db),
        'writes',
      );
      for (let i = 0; i < 3; i++) {
        const result = await one.query(write.sql, [1]);
        expect([result.command, result.rowCount, result.rows]).toEqual(['UPDATE', 1, []]);
      }
      expect(onOne()).toBe(1);
    } finally {
      one.release();
      two.release();
    }
  });

  it('refuses rows with other columns than the kept description as an outdated statement', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const shapes: RowShapes = new Map();
      const run = (from: number) =>
        new Promise<pg.QueryResult>((resolve, reject) => {
          const query = new DescribedQuery(
            'select n, label from shaped where n >= $1 order by n',
            [from],
            (error: Error | null | undefined, result: unknown) =>
              error ? reject(error) : resolve(result as pg.QueryResult),
          );
          (query as { name?: string }).name = 'shaped_rows';
          query.shapes = shapes;
          void client.query(query as unknown as pg.QueryConfig);
        });
      expect((await run(3)).rows).toEqual([{ n: 3, label: 'three' }]);
      // As a pooler's other server connection answers once a migration added a column: the
      // rows have a column more than the description kept for the name.
      const kept = shapes.get('shaped_rows')!;
      shapes.set('shaped_rows', { ...kept, fields: kept.fields.slice(0, 1) });
      const refused = await run(1).catch((error: unknown) => error);
      expect(isOutdatedPlan(refused)).toBe(true);
      expect(shapes.has('shaped_rows')).toBe(false);
      // Described again, and read right, on the same connection.
      expect((await run(2)).rows).toEqual([
        { n: 2, label: null },
        { n: 3, label: 'three' },
      ]);
      expect(shapes.get('shaped_rows')?.fields).toHaveLength(2);
    } finally {
      await client.end();
    }
  });
});
