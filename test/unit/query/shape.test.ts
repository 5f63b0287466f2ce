/**
 * Shapes of compiled list SQL (query/shape.ts): values taken out in the order Kysely binds
 * them, the same key whatever the values, a different key whenever the SQL text differs,
 * unknown nodes shapeless; and the bounded cache that holds compiled shapes.
 */
import { sql, type OperationNode, type SqlBool } from 'kysely';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createQueryRecorder } from '../../../src/db/query-recorder.js';
import { compile } from '../../../src/query/compile.js';
import { bound, fragment, joined } from '../../../src/query/fragment.js';
import { parse } from '../../../src/query/parse.js';
import { plan } from '../../../src/query/plan.js';
import { BoundedCache, sameValues, shapeOf } from '../../../src/query/shape.js';
import type { Scope } from '../../../src/query/types.js';
import { orderList } from '../../../src/modules/orders/orders.list.js';

const A = 'a'.repeat(24);
const B = 'b'.repeat(24);
const shapeOfQuery = (query: Record<string, string>, scope: Scope = 'all') => {
  const compiled = compile(orderList, plan(parse(query), orderList), scope);
  return shapeOf([compiled.where, compiled.orderBy])!;
};

describe('shapeOf', () => {
  it('takes the values out in the order the compiler binds them', () => {
    const where = sql<SqlBool>`a = ${1} and (b in (${sql.join([2, 3])}) or ${sql.ref('o.c')} = ${'x'})`;
    const { db } = createQueryRecorder();
    const compiled = db.selectFrom('orders as o').selectAll().where(where).compile();
    const shape = shapeOf([where.toOperationNode()])!;
    expect(shape.values).toEqual([1, 2, 3, 'x']);
    expect(compiled.parameters).toEqual(shape.values);
  });

  it("reads the compiler's own fragments as the Kysely nodes they stand for", () => {
    const where = fragment<SqlBool>`a = ${1} and b in (${joined([bound(2), 3])}) and c && ${bound(['x', 'y'])}::text[] and ${sql.ref('o.c')} = ${'x'}${fragment``}`;
    const { db } = createQueryRecorder();
    const compiled = db.selectFrom('orders as o').selectAll().where(where).compile();
    const shape = shapeOf([where])!;
    expect(shape).toEqual(shapeOf([where.toOperationNode()]));
    expect(shape.values).toEqual([1, 2, 3, ['x', 'y'], 'x']);
    expect(compiled.parameters).toEqual(shape.values);
    expect(compiled.sql).toContain('a = $1 and b in ($2, $3) and c && $4::text[] and "o"."c" = $5');
    // A function is an expression factory to Kysely, not a value: no shape is guessed; nor
    // for a bound expression, which sql.val compiles as SQL.
    expect(shapeOf([fragment`a = ${() => 1}`])).toBeUndefined();
    expect(shapeOf([fragment`a = ${bound(sql.ref('o.c'))}`])).toBeUndefined();
    // A hole in a joined list keeps its separators, as sql.join does.
    const holed = joined([1, , 2]);
    expect(shapeOf([holed])).toEqual(shapeOf([holed.toOperationNode()]));
    expect(
      db
        .selectFrom('orders as o')
        .selectAll()
        .where(fragment<SqlBool>`x in (${holed})`)
        .compile().sql,
    ).toContain('x in ($1, $2, $3)');
  });

  it('gives one key to queries differing only in their values', () => {
    const a = shapeOfQuery({ seller: A, 'items.arrival[range]': '2030-01-01,2030-01-03' });
    const b = shapeOfQuery({ seller: B, 'items.arrival[range]': '2031-05-01,2031-05-09' });
    expect(a.key).toBe(b.key);
    expect(a.values).not.toEqual(b.values);
  });

  it('gives one key exactly when the SQL text is one: list lengths, exists, scope, sort', () => {
    const C = 'c'.repeat(24);
    const cases: [Record<string, string>, Scope?][] = [
      [{ 'items.arrival[in]': '2030-01-01,2030-01-02' }],
      [{ 'items.arrival[in]': '2030-02-01,2030-02-02' }],
      [{ 'items.arrival[in]': '2030-01-01,2030-01-02,2030-01-03' }],
      [{ 'customerEmail[exists]': 'true' }],
      [{ 'customerEmail[exists]': 'false' }],
      [{ seller: A }],
      [{ seller: A }, { anyOf: [{ field: 'seller', in: [A] }] }],
      [{ seller: A }, { anyOf: [{ field: 'seller', in: [A, B] }] }],
      [{ seller: A }, { anyOf: [{ field: 'seller', in: [B] }] }],
      [{ seller: A }, { anyOf: [{ field: 'seller', in: [B, C] }] }],
      [{ seller: C }, { anyOf: [{ field: 'seller', in: [B] }] }],
      [{ seller: A, sort: 'amount' }],
      [{ 'customerName[contains]': 'mart' }],
      [{ seller: A, 'customerName[contains]': 'mart' }],
      [{ 'id[lt]': A }, { anyOf: [{ field: 'seller', in: [B] }] }],
      [{ 'id[lt]': A }],
    ];
    const { db } = createQueryRecorder();
    const compiled = cases.map(([query, scope = 'all']) => {
      const list = compile(orderList, plan(parse(query), orderList), scope);
      const shape = shapeOf([list.where, list.orderBy])!;
      // The compiler's fragments, walked as they are, have the shape of the Kysely nodes
      // they stand for: the same key and the same values in the same order.
      expect(shapeOf([list.where.toOperationNode(), list.orderBy.toOperationNode()])).toEqual(
        shape,
      );
      const compiledQuery = db
        .selectFrom('orders as o')
        .selectAll()
        .where(list.where)
        .orderBy(list.orderBy)
        .compile();
      expect(compiledQuery.parameters).toEqual(shape.values);
      const text = db
        .selectFrom('orders as o')
        .selectAll()
        .where(list.where)
        .orderBy(list.orderBy)
        .compile().sql;
      return { key: shape.key, text };
    });
    for (const a of compiled)
      for (const b of compiled) expect(a.key === b.key).toBe(a.text === b.text);
    expect(new Set(compiled.map((c) => c.key)).size).toBeGreaterThan(10);
  });

  it('walks a tree without values once, and takes the values of any other every time', () => {
    const order = sql`${sql.ref('o.created_at')} desc`.toOperationNode();
    const where = sql<SqlBool>`a = ${1}`.toOperationNode();
    const first = shapeOf([where, order])!;
    expect(first.values).toEqual([1]);
    expect(shapeOf([where, order])).toEqual(first);
    expect(shapeOf([order, where])).toEqual({ key: expect.any(String), values: [1] });
    expect(shapeOf([sql<SqlBool>`a = ${2}`.toOperationNode(), order])).toEqual({
      key: first.key,
      values: [2],
    });
    // The compiler shares one `order by` between requests of one sort, and only then.
    const orderOf = (query: Record<string, string>) =>
      compile(orderList, plan(parse(query), orderList), 'all').orderBy;
    expect(orderOf({ seller: A })).toBe(orderOf({ seller: B }));
    expect(orderOf({ sort: 'amount' })).toBe(orderOf({ sort: 'amount', seller: A }));
    expect(orderOf({ sort: 'amount' })).not.toBe(orderOf({ sort: '-amount' }));
    expect(orderOf({ sort: 'amount' })).not.toBe(orderOf({}));
  });

  it('never gives one key to names that compile to different texts', () => {
    const { db } = createQueryRecorder();
    const names = [
      sql.ref('o.id'),
      sql.ref('o.amount'),
      sql.ref('i.id'),
      sql.ref('id'),
      sql.ref('public.o.id'),
      sql.ref('o.*'),
      sql.ref('i.*'),
      sql.table('orders'),
      sql.table('public.orders'),
      sql.table('order_items'),
      sql.id('o'),
      sql.id('id'),
      sql`${sql.id('o')}.${sql.id('id')}`,
      // Markers inside names (none of ours holds them): still one key per text.
      sql.ref('o.a\u0000b'),
      sql.ref('x.y\u0000z'),
      sql.ref('x\u0000y.z'),
      sql.ref('o.a\u0003b'),
      sql.ref('o.a\u0001"b"'),
      sql.id('a\u0000b'),
      sql.id('a', 'b'),
    ];
    const cases = names.map((name) => {
      const where = sql<SqlBool>`${name} is not null`;
      const text = db.selectFrom('orders as o').selectAll().where(where).compile().sql;
      return { key: shapeOf([where.toOperationNode()])!.key, text };
    });
    for (const a of cases) for (const b of cases) if (a.key === b.key) expect(a.text).toBe(b.text);
    expect(new Set(cases.map((c) => c.key)).size).toBe(cases.length);
  });

  it('writes an immediate value into the key, and refuses nodes it does not know', () => {
    expect(shapeOf([sql`x = ${sql.lit(1)}`.toOperationNode()])!.key).not.toBe(
      shapeOf([sql`x = ${sql.lit(2)}`.toOperationNode()])!.key,
    );
    const { db } = createQueryRecorder();
    const subquery = db.selectFrom('orders').select('id').where('id', '=', A);
    expect(shapeOf([sql`o.id in (${subquery})`.toOperationNode()])).toBeUndefined();
    expect(shapeOf([{ kind: 'SomethingNode' } as unknown as OperationNode])).toBeUndefined();
  });
});

describe('sameValues', () => {
  it('compares bound values, arrays element by element', () => {
    expect(sameValues([1, 'a', [A, B]], [1, 'a', [A, B]])).toBe(true);
    expect(sameValues([1, [A]], [1, [B]])).toBe(false);
    expect(sameValues([1], [1, 2])).toBe(false);
    expect(sameValues([new Date(5)], [new Date(5)])).toBe(true);
  });
});

describe('BoundedCache', () => {
  it('keeps at most max entries, forgetting the least recently used', () => {
    const cache = new BoundedCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
  });

  it('keeps what was used and what was just set, whatever the order of use', () => {
    const cache = new BoundedCache<number>(3);
    for (const key of ['a', 'b', 'c']) cache.set(key, 1);
    for (const key of ['a', 'b', 'c']) cache.get(key);
    cache.set('d', 4); // all used: one of them goes, never d
    expect(cache.size).toBe(3);
    expect(cache.get('d')).toBe(4);
    cache.set('e', 5); // d was read again; of the rest, none was used since they were passed over
    expect(cache.get('d')).toBe(4);
    expect(cache.get('e')).toBe(5);
    expect(cache.size).toBe(3);
  });

  it('never holds more than max entries, under any sequence of sets and gets', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 9 })), { maxLength: 60 }),
        (max, steps) => {
          const cache = new BoundedCache<number>(max);
          for (const [isSet, n] of steps) {
            if (isSet) {
              cache.set(String(n), n);
              expect(cache.get(String(n))).toBe(n);
            } else {
              const got = cache.get(String(n));
              if (got !== undefined) expect(got).toBe(n);
            }
            expect(cache.size).toBeLessThanOrEqual(max);
          }
        },
      ),
    );
  });
});
