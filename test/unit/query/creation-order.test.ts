/**
 * Creation order in the query language (src/query/creation-order.ts): the default order and
 * `sort=id` are `(createdAt, id)`, and a resource's own id compared with gt, gte, lt, lte or
 * range is compared in that order, against the named object or, when the caller can see
 * none, against the second the id holds. In the SQL and in the reference evaluator alike.
 */
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresQueryCompiler,
  PostgresIntrospector,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../../../src/db/types.js';
import { orderList } from '../../../src/modules/orders/orders.list.js';
import { sellerList } from '../../../src/modules/users/sellers.list.js';
import { compile } from '../../../src/query/compile.js';
import { evaluate } from '../../../src/query/evaluate.js';
import { parse } from '../../../src/query/parse.js';
import { plan } from '../../../src/query/plan.js';
import type { Scope } from '../../../src/query/types.js';

const db = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

const SELLER = '5e1f3c9a2b4d6e8f0a1b2c3d';
const OTHER = '6e1f3c9a2b4d6e8f0a1b2c3e';
const SECOND = 1_700_000_000;
const hex = (seconds: number, rest: string) =>
  seconds.toString(16).padStart(8, '0') + rest.repeat(16);

function ordersSql(query: Record<string, string>, scope: Scope = 'all') {
  const compiled = compile(orderList, plan(parse(query), orderList), scope);
  return db
    .selectFrom('orders as o')
    .select('o.id')
    .where(compiled.where)
    .orderBy(compiled.orderBy)
    .compile();
}

describe('creation order in SQL', () => {
  it('orders by (created_at, id) by default and for sort=id, by the field then id otherwise', () => {
    expect(ordersSql({}).sql).toContain('order by "o"."created_at" desc, "o"."id" desc');
    expect(ordersSql({ sort: 'id' }).sql).toContain('order by "o"."created_at" asc, "o"."id" asc');
    expect(ordersSql({ sort: '-amount' }).sql).toContain(
      'order by "o"."amount" desc, "o"."id" desc',
    );
    // Sellers show no creation time: their id alone.
    const sellers = compile(sellerList, plan(parse({}), sellerList), 'all');
    expect(
      db.selectFrom('users as u').select('u.id').orderBy(sellers.orderBy).compile().sql,
    ).toContain('order by "u"."id" desc');
  });

  it('compares an id with the named object, looked up within the scope, or its second', () => {
    const id = hex(SECOND, 'a');
    const { sql, parameters } = ordersSql(
      { 'id[lt]': id },
      { anyOf: [{ field: 'seller', in: [SELLER] }] },
    );
    expect(sql).toBe(
      'select "o"."id" from "orders" as "o" where (("o"."created_at", "o"."id") < (coalesce((select "anchor"."created_at" from "orders" as "anchor" where "anchor"."id" = $1 and ("anchor"."seller_id" in ($2))), cast($3 as timestamptz)), $4) and ("o"."seller_id" in ($5))) order by "o"."created_at" desc, "o"."id" desc',
    );
    expect(parameters).toEqual([id, SELLER, new Date(SECOND * 1000).toISOString(), id, SELLER]);
  });

  it('writes range as two comparisons, both ends included, and leaves the other operators alone', () => {
    const a = hex(SECOND, 'a');
    const b = hex(SECOND + 1, 'b');
    const { sql } = ordersSql({ 'id[range]': `${a},${b}` });
    expect(sql).toContain('(("o"."created_at", "o"."id") >= (coalesce(');
    expect(sql).toContain('and ("o"."created_at", "o"."id") <= (coalesce(');
    expect(ordersSql({ 'id[in]': `${a},${b}` }).sql).toContain('"o"."id" in ($1, $2)');
    expect(ordersSql({ 'seller[lt]': OTHER }).sql).toContain('"o"."seller_id" < $1');
  });
});

const order = (id: string, createdAt: string, seller = SELLER) => ({
  id,
  seller: { id: seller },
  customer: null,
  createdAt,
  updatedAt: createdAt,
  items: [],
});
const T = (ms: number) => new Date(SECOND * 1000 + ms).toISOString();

// Ids whose hex order is not their creation order (the second before 64 random bits).
const early = order(hex(SECOND, 'f'), T(10));
const middle = order(hex(SECOND, '0'), T(20));
const tied = order(hex(SECOND, '1'), T(20));
const late = order(hex(SECOND + 1, '5'), T(1500));
const foreign = order(hex(SECOND, '8'), T(15), OTHER);
const all = [late, tied, early, middle, foreign];

const ids = (query: Record<string, string>, scope: Scope = 'all') =>
  evaluate(orderList, plan(parse(query), orderList), scope, all).page.map((o) => o.id);

describe('creation order in the reference evaluator', () => {
  it('orders by (createdAt, id), ties of one millisecond by id', () => {
    expect(ids({ sort: 'id' })).toEqual([early.id, foreign.id, middle.id, tied.id, late.id]);
    expect(ids({})).toEqual([late.id, tied.id, middle.id, foreign.id, early.id]);
  });

  it('compares an id with the object it names', () => {
    expect(ids({ 'id[lt]': tied.id })).toEqual([middle.id, foreign.id, early.id]);
    expect(ids({ 'id[lte]': middle.id })).toEqual([middle.id, foreign.id, early.id]);
    expect(ids({ 'id[gt]': early.id, sort: 'id' })).toEqual([
      foreign.id,
      middle.id,
      tied.id,
      late.id,
    ]);
    expect(ids({ 'id[range]': `${foreign.id},${tied.id}`, sort: 'id' })).toEqual([
      foreign.id,
      middle.id,
      tied.id,
    ]);
  });

  it('compares an id that names nothing the caller can see with the second it holds', () => {
    const scope: Scope = { anyOf: [{ field: 'seller', in: [SELLER] }] };
    // `foreign` exists but is not the caller's: its id means its second, like a made-up one.
    expect(ids({ 'id[lt]': foreign.id }, scope)).toEqual([]);
    expect(ids({ 'id[gte]': foreign.id, sort: 'id' }, scope)).toEqual([
      early.id,
      middle.id,
      tied.id,
      late.id,
    ]);
    expect(ids({ 'id[lt]': hex(SECOND + 1, '0') })).toEqual([
      tied.id,
      middle.id,
      foreign.id,
      early.id,
    ]);
    expect(ids({ 'id[lt]': hex(SECOND + 2, '0') })).toHaveLength(5);
  });
});
