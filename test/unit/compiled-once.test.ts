/**
 * Queries compiled once (db/compiled-once.ts): the same SQL as compiling each time, the
 * caller's values bound, one compilation per database handle, a wrong count refused.
 */
import { describe, expect, it } from 'vitest';
import { compiledOnce } from '../../src/db/compiled-once.js';
import { createQueryRecorder } from '../../src/db/query-recorder.js';

describe('compiledOnce', () => {
  const byId = (id: string) => (db: ReturnType<typeof createQueryRecorder>['db']) =>
    db.selectFrom('orders').selectAll().where('id', '=', id).where('status', '=', 'confirmed');

  it('binds the values into the SQL compiled from the placeholders', () => {
    const { db } = createQueryRecorder();
    let builds = 0;
    const query = compiledOnce((d) => {
      builds += 1;
      return d
        .selectFrom('orders')
        .selectAll()
        .where('id', '=', '')
        .where('status', '=', 'confirmed');
    });
    const fresh = byId('abc')(db).compile();
    const a = query(db, ['abc', 'confirmed']);
    const b = query(db, ['def', 'held']);
    expect(a.sql).toBe(fresh.sql);
    expect(a.parameters).toEqual(fresh.parameters);
    expect(b.parameters).toEqual(['def', 'held']);
    expect(builds).toBe(1);
    query(createQueryRecorder().db, ['x', 'y']);
    expect(builds).toBe(2);
  });

  it('refuses a number of values the SQL does not take', () => {
    const { db } = createQueryRecorder();
    const query = compiledOnce((d) => d.selectFrom('orders').selectAll().where('id', '=', ''));
    expect(() => query(db, [])).toThrow(/1 values wanted, 0 given/);
    expect(() => query(db, ['a', 'b'])).toThrow();
  });
});
