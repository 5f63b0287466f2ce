/**
 * Which named statements may read their rows with a description kept from an earlier
 * execution (db/described-query.ts, `mayReuseShape`): only those that can run again without
 * writing twice when a row is refused, a SELECT or a statement inside a transaction that
 * does not carry its COMMIT.
 */
import { describe, expect, it } from 'vitest';
import { mayReuseShape } from '../../src/db/described-query.js';

describe('mayReuseShape', () => {
  it('lets a SELECT read with a kept description, in a transaction or not', () => {
    const text = 'select "o"."id" from "orders" as "o" where "o"."id" = $1';
    expect(mayReuseShape(text, false, false)).toBe(true);
    expect(mayReuseShape(`  SELECT\n${text.slice(7)}`, false, false)).toBe(true);
    expect(mayReuseShape(text, true, false)).toBe(true);
  });

  it('keeps a write outside a transaction described: run again, it would write twice', () => {
    for (const text of [
      'update "events" set "reserved" = reserved + $1 where "id" = $2 returning *',
      'insert into "probe" ("n") values ($1) returning "n"',
      'with "w0" as (insert into "probe" ("n") values ($1)) select 1 as "n"',
      'selected_rows', // not a SELECT statement
    ])
      expect(mayReuseShape(text, false, false)).toBe(false);
  });

  it('lets a write in a transaction read with one, unless it carries the COMMIT', () => {
    const text = 'update "events" set "reserved" = reserved + $1 where "id" = $2 returning *';
    expect(mayReuseShape(text, true, false)).toBe(true);
    expect(mayReuseShape(text, true, true)).toBe(false);
    expect(mayReuseShape('select 1 as "n"', true, true)).toBe(false);
  });
});
