/**
 * Statements compiled once (src/db/statement-template.ts): the text Kysely compiles with the
 * values written in, and the values bound in their places, call after call.
 */
import { sql, WithSchemaPlugin, type SqlBool } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createQueryRecorder } from '../../src/db/query-recorder.js';
import { statement } from '../../src/db/statement-template.js';

const { db } = createQueryRecorder();

describe('statement', () => {
  const reserve = statement((q, v: { id: string; quantity: number; at: Date | null }) =>
    q
      .updateTable('events')
      .set({ reserved: sql`reserved + ${v.quantity}`, updated_at: v.at! })
      .where('id', '=', v.id)
      .where(sql<SqlBool>`${v.quantity}::int <= 10`)
      .returningAll(),
  );
  const direct = (v: { id: string; quantity: number; at: Date | null }) =>
    db
      .updateTable('events')
      .set({ reserved: sql`reserved + ${v.quantity}`, updated_at: v.at! })
      .where('id', '=', v.id)
      .where(sql<SqlBool>`${v.quantity}::int <= 10`)
      .returningAll()
      .compile();

  it("binds each call's values where Kysely would, in Kysely's text", () => {
    for (const values of [
      { id: 'a', quantity: 1, at: new Date(0) },
      { id: 'b', quantity: 3, at: null },
    ]) {
      const bound = reserve(db, values);
      expect([bound.sql, bound.parameters]).toEqual([
        direct(values).sql,
        direct(values).parameters,
      ]);
    }
  });

  it('compiles once for every handle without plugins, every time on one with plugins', () => {
    let builds = 0;
    const byId = statement((q, v: { id: string }) => {
      builds += 1;
      return q.selectFrom('orders').select('customer_name').where('id', '=', v.id);
    });
    expect(byId(db, { id: 'a' }).parameters).toEqual(['a']);
    expect(byId(db, { id: 'b' }).parameters).toEqual(['b']);
    // Another handle (a transaction is one) reuses the text.
    expect(byId(createQueryRecorder().db, { id: 'c' }).parameters).toEqual(['c']);
    expect(builds).toBe(1);
    // A plugin rewrites the query: its text is its own, compiled each time.
    const other = db.withPlugin(new WithSchemaPlugin('archive'));
    expect(byId(other, { id: 'd' }).sql).not.toBe(byId(db, { id: 'd' }).sql);
    byId(other, { id: 'e' });
    expect(builds).toBe(3);
  });

  it('refuses a value the query does not bind as a parameter', () => {
    const unbound = statement((q, v: { id: string; unused: number }) =>
      q.selectFrom('events').selectAll().where('id', '=', v.id),
    );
    expect(() => unbound(db, { id: 'a', unused: 1 })).toThrow(/unused not bound/);
  });
});
