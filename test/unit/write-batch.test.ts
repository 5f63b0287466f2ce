/**
 * The write batch (src/db/write-batch.ts): writes through the `BatchTx` wait and go out as
 * one statement at the end; writes through the transaction itself run when awaited, even
 * while a batch of it is open.
 */
import { describe, expect, it } from 'vitest';
import { createQueryRecorder } from '../../src/db/query-recorder.js';
import { inOneStatement, write } from '../../src/db/write-batch.js';

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
