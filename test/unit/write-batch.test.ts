/**
 * The write batch (src/db/write-batch.ts): writes through the `BatchTx` wait and go out as
 * one statement at the end; writes through the transaction itself run when awaited, even
 * while a batch of it is open. Its text is reused per shape (src/db/write-shapes.ts): the
 * same text and parameters as Kysely's, whatever the values.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createQueryRecorder } from '../../src/db/query-recorder.js';
import { inOneStatement, insertRows, write } from '../../src/db/write-batch.js';
import { COMMITS, commits } from '../../src/db/pipelined-transaction.js';
import {
  MAX_SHAPE_CHARS,
  compiledWrite,
  insertShape,
  keptShapeChars,
} from '../../src/db/write-shapes.js';

const recorder = createQueryRecorder();

describe('inOneStatement', () => {
  it('defers the writes made through the batch, not those made through the transaction', async () => {
    const queries = await recorder.record((db) =>
      db.transaction().execute((tx) =>
        inOneStatement(tx, async (batch) => {
          await write(batch, batch.deleteFrom('orders').where('id', '=', 'a'));
          await write(tx, tx.deleteFrom('orders').where('id', '=', 'now'));
          await write(batch, batch.deleteFrom('orders').where('id', '=', 'b'));
        }),
      ),
    );
    expect(queries.map((q) => [q.sql, q.parameters])).toEqual([
      ['delete from "orders" where "id" = $1', ['now']],
      [
        'with "w0" as (delete from "orders" where "id" = $1) delete from "orders" where "id" = $2',
        ['a', 'b'],
      ],
    ]);
  });

  it('sends nothing when the work throws', async () => {
    const queries = await recorder.record((db) =>
      db.transaction().execute((tx) =>
        inOneStatement(tx, async (batch) => {
          await write(batch, batch.deleteFrom('orders').where('id', '=', 'a'));
          throw new Error('refused');
        }),
      ),
    );
    expect(queries).toEqual([]);
  });
});

describe('a batch compiled once per shape', () => {
  interface Row {
    id: string;
    name: 'order.create';
    seller_id: string;
    actor_id: null;
    object: string;
    audit?: string | null;
  }
  const row = (id: string, audit: string | null): Row => ({
    id,
    name: 'order.create' as const,
    seller_id: 's',
    actor_id: null,
    object: `{"id":"${id}"}`,
    audit,
  });
  const kyselys = (rows: Row[], last: string) =>
    sql`with "w0" as (${recorder.db.insertInto('domain_events').values(rows)}) ${recorder.db
      .deleteFrom('orders')
      .where('id', '=', last)}`.compile(recorder.db);
  const batched = (rows: Row[], last: string) =>
    recorder.record((db) =>
      db.transaction().execute((tx) =>
        inOneStatement(tx, async (batch) => {
          await insertRows(batch, 'domain_events', rows);
          await write(batch, batch.deleteFrom('orders').where('id', '=', last));
        }),
      ),
    );

  it("sends Kysely's text and parameters, for the shape's first batch and later ones", async () => {
    for (const [rows, last] of [
      [[row('a', null), row('b', '{}')], 'x'],
      [[row('c', '{"k":1}'), row('d', null)], 'y'],
      [[row('e', null)], 'z'],
    ] as const) {
      const [sent] = await batched([...rows], last);
      const expected = kyselys([...rows], last);
      expect([sent!.sql, sent!.parameters]).toEqual([expected.sql, expected.parameters]);
    }
  });

  it('writes rows of other columns, or with a value left out, through Kysely as before', async () => {
    const rows = [row('a', null), { ...row('b', null), audit: undefined }];
    const [sent] = await batched(rows, 'x');
    const expected = kyselys(rows, 'x');
    expect(sent!.sql).toContain('default');
    expect([sent!.sql, sent!.parameters]).toEqual([expected.sql, expected.parameters]);
  });

  it("marks a transaction's last batch to carry its COMMIT, apart from the same shape unmarked", () => {
    const writes = () => [recorder.db.deleteFrom('orders').where('id', '=', 'a')];
    const plain = compiledWrite(recorder.db, writes());
    for (let i = 0; i < 2; i++) {
      const last = compiledWrite(recorder.db, writes(), true);
      expect(last.sql).toBe(plain.sql + COMMITS);
      expect(last.parameters).toEqual(plain.parameters);
      expect(commits(last.sql)).toBe(true);
      expect(compiledWrite(recorder.db, writes()).sql).toBe(plain.sql);
    }
    expect(commits(plain.sql)).toBe(false);
  });

  it('refuses a shape whose parameters are not those Kysely binds', () => {
    const query = () => recorder.db.deleteFrom('orders').where('id', '=', 'a');
    expect(() =>
      compiledWrite(recorder.db, [{ shape: 'delete one order', parameters: ['b'], query }]),
    ).toThrow(/other parameters/);
  });

  it('keeps at most MAX_SHAPE_CHARS of text, however many sizes of batch it sees', () => {
    // Batches of 1 to 700 rows: each size its own shape, twice the bound's text in all.
    let all = 0;
    let emptied = false;
    for (let size = 1; size <= 700; size++) {
      const rows = Array.from({ length: size }, (_, i) => row(`r${i}`, null));
      const query = () => recorder.db.insertInto('domain_events').values(rows);
      const before = keptShapeChars();
      const written = compiledWrite(recorder.db, [insertShape('domain_events', rows, query)!]);
      expect(written.parameters).toHaveLength(size * 6);
      all += written.sql.length;
      if (keptShapeChars() < before) emptied = true;
      expect(keptShapeChars()).toBeLessThanOrEqual(MAX_SHAPE_CHARS);
    }
    expect(all).toBeGreaterThan(2 * MAX_SHAPE_CHARS);
    expect(emptied).toBe(true);
  });
});
