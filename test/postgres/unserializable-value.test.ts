/**
 * A value node-postgres cannot serialize, sent to a named statement (db/prepared.ts), fails
 * that execution only: node-postgres closes the statement on the server when it cannot bind
 * the value, and the connection forgets the name too (db/described-query.ts,
 * db/pool-clients.ts), so the next execution on the same connection parses it again. It
 * used to fail with 26000 ("prepared statement does not exist") on that connection for
 * good: a pool of one makes every execution use it.
 *
 * @isolated Its statements must be named: the prepared statements' budget is the process's
 * (db/prepared.ts), and files run earlier in a shared worker may have spent it.
 */
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { nameOf, prepared } from '../../src/db/prepared.js';
import { createTestDatabase } from '../helpers/database.js';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase({ poolSize: 1 });
});
afterAll(async () => database.close());

/** A named statement reading back a jsonb value (the shape a write's jsonb column takes). */
const statement = (tag: string) => {
  const text = `select $1::jsonb as v, pg_backend_pid() as pid /* ${tag} */`;
  const query = (value: unknown) => prepared(CompiledQuery.raw(text, [value]));
  query({}); // marked
  expect(nameOf(text)).toBeDefined();
  return async (value: unknown) =>
    (await database.db.executeQuery<{ v: unknown; pid: number }>(query(value))).rows[0]!;
};

describe('a value that cannot be serialized, sent to a named statement', () => {
  it('fails that execution only, once the statement was prepared on the connection', async () => {
    const run = statement('prepared before');
    const first = await run({ a: 1 });
    expect(first.v).toEqual({ a: 1 });
    await expect(run({ a: 1n })).rejects.toThrow(/BigInt/);
    for (const a of [3, 4, 5]) {
      const row = await run({ a });
      expect(row.v).toEqual({ a });
      expect(row.pid).toBe(first.pid); // the same connection throughout
    }
  });

  it('fails that execution only when it was its first on the connection', async () => {
    const run = statement('first execution');
    await expect(run({ a: 1n })).rejects.toThrow(/BigInt/);
    for (const a of [2, 3]) expect((await run({ a })).v).toEqual({ a });
  });
});
