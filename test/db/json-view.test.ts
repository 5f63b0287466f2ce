/**
 * `fromJsonb` (src/db/json-view.ts) run by the database: a stored jsonb array rendered
 * through its schema, for every kind of value a column may hold. The empty array takes the
 * short way (no subquery); it must render exactly as the long way would.
 */
import { sql } from 'kysely';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { fromJsonb } from '../../src/db/json-view.js';
import { createTestDatabase } from '../helpers/database.js';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database.close());

const Notes = Type.Array(Type.Object({ text: Type.String() }));

/** The rendering of `stored` (jsonb text, or SQL null), as the text PostgreSQL writes. */
async function rendered(stored: string | null): Promise<string | null> {
  const view = fromJsonb(Notes, 'v.value');
  const { rows } = await sql<{ out: string | null }>`
    select (${sql.raw(view)})::text as out from (select ${stored}::jsonb as value) v`.execute(
    database.db,
  );
  return rows[0]!.out;
}

describe('fromJsonb', () => {
  it('renders an empty array as an empty array', async () => {
    expect(await rendered('[]')).toBe('[]');
  });

  it('keeps only the declared keys of each element, in order', async () => {
    const out = await rendered('[{"text": "a", "secret": 1}, {"text": "b"}, 3]');
    expect(JSON.parse(out!)).toEqual([{ text: 'a' }, { text: 'b' }, null]);
  });

  it('renders what is not an array as an empty array', async () => {
    for (const stored of ['{}', '"text"', 'null', '{"0": {"text": "a"}}'])
      expect(await rendered(stored)).toBe('[]');
  });

  it('renders a missing value as an empty array', async () => {
    expect(await rendered(null)).toBe('[]');
  });
});
