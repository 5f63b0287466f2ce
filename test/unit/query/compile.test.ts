/**
 * The SQL the compiler produces, without a database: text and bound parameters. Values
 * never appear in the SQL text; identifiers come only from the field specs.
 */
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../../../src/db/types.js';
import { compile } from '../../../src/query/compile.js';
import { parse } from '../../../src/query/parse.js';
import { plan } from '../../../src/query/plan.js';
import type { Scope } from '../../../src/query/types.js';
import { eventList } from '../../../src/modules/events/events.list.js';
import { orderList } from '../../../src/modules/orders/orders.list.js';

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

function ordersSql(query: Record<string, string>, scope: Scope = 'all') {
  const compiled = compile(orderList, plan(parse(query), orderList), scope);
  return db
    .selectFrom('orders as o')
    .selectAll('o')
    .where(compiled.where)
    .orderBy(compiled.orderBy)
    .limit(compiled.limit)
    .offset(compiled.offset)
    .compile();
}

function eventsSql(query: Record<string, string>, scope: Scope = 'all') {
  const compiled = compile(eventList, plan(parse(query), eventList), scope);
  return db
    .selectFrom('events as e')
    .selectAll('e')
    .where(compiled.where)
    .orderBy(compiled.orderBy)
    .compile();
}

describe('compile', () => {
  it('binds every value and takes identifiers from the spec', () => {
    const { sql, parameters } = ordersSql({
      seller: SELLER,
      'customerName[contains]': "O'Brien; drop table orders",
      'amount[gte]': '10',
    });
    expect(sql).toBe(
      'select "o".* from "orders" as "o" where ("o"."seller_id" = $1 and strpos(lower("o"."customer_name" collate "und-x-icu"), $2) > 0 and "o"."amount" >= $3) order by "o"."created_at" desc, "o"."id" desc limit $4 offset $5',
    );
    expect(parameters).toEqual([SELLER, "o'brien; drop table orders", 10, 21, 0]);
  });

  it('escapes %, _ and \\ in substring patterns', () => {
    const { parameters } = ordersSql({
      'customerName[startsWith]': '100%_a\\b',
      'customerEmail[endsWith]': '_x',
    });
    expect(parameters.slice(0, 2)).toEqual(['100\\%\\_a\\\\b%', '%\\_x']);
  });

  it('compiles the three equivalent date-range forms to one EXISTS over items each', () => {
    const forms: Record<string, string>[] = [
      { 'items.arrival[in]': '2019-11-08,2019-11-09,2019-11-10' },
      { 'items.arrival[gte]': '2019-11-08', 'items.arrival[lte]': '2019-11-10' },
      { 'items.arrival[range]': '2019-11-08,2019-11-10' },
    ];
    const [inForm, bounds, range] = forms.map((q) => ordersSql(q));
    expect(inForm!.sql).toContain(
      'exists (select 1 from "order_items" as "i" where "i"."order_id" = "o"."id" and ("i"."arrival" in ($1, $2, $3)))',
    );
    expect(bounds!.sql).toContain('and ("i"."arrival" >= $1 and "i"."arrival" <= $2))');
    expect(range!.sql).toContain('and ("i"."arrival" between $1 and $2))');
    for (const compiled of [inForm, bounds, range])
      expect(compiled!.sql.match(/exists/g)).toHaveLength(1);
  });

  it('repeats the seller filter inside the items EXISTS, and nowhere the scope it implies', () => {
    const { sql, parameters } = ordersSql(
      { seller: SELLER, 'items.arrival[range]': '2019-11-08,2019-11-10' },
      { anyOf: [{ field: 'seller', in: [SELLER, OTHER] }] },
    );
    expect(sql).toBe(
      'select "o".* from "orders" as "o" where ("o"."seller_id" = $1 and exists (select 1 from "order_items" as "i" where "i"."order_id" = "o"."id" and ("i"."arrival" between $2 and $3 and "i"."seller_id" = $4))) order by "o"."created_at" desc, "o"."id" desc limit $5 offset $6',
    );
    expect(parameters).toEqual([SELLER, '2019-11-08', '2019-11-10', SELLER, 21, 0]);
  });

  it('repeats the scope inside the items EXISTS when the filters do not imply it', () => {
    const scope = {
      anyOf: [
        { field: 'seller', in: [OTHER] },
        { field: 'customer', in: [SELLER] },
      ],
    };
    const where = (query: Record<string, string>) =>
      ordersSql({ ...query, 'items.arrival[gte]': '2019-11-08' }, scope).sql.split('exists');
    // Another seller's orders are in scope only where the caller is their customer.
    for (const query of [
      { seller: SELLER } as Record<string, string>,
      { 'seller[in]': `${OTHER},${SELLER}` },
      { 'seller[notEqual]': SELLER },
      { 'customer[in]': `${SELLER},${OTHER}` },
    ]) {
      const [outer, inner] = where(query);
      expect(outer).toContain('"o"."customer_id" in (');
      expect(inner).toContain('"i"."customer_id" in (');
    }
    for (const query of [{ 'seller[in]': OTHER } as Record<string, string>, { customer: SELLER }]) {
      const [outer, inner] = where(query);
      expect(outer).not.toContain(' or ');
      expect(inner).not.toContain(' or ');
    }
  });

  it('pushes a seller-or-customer scope into items through the copied columns', () => {
    const { sql } = ordersSql(
      { 'items.quantity[gt]': '2' },
      {
        anyOf: [
          { field: 'seller', in: [SELLER] },
          { field: 'customer', in: [SELLER] },
        ],
      },
    );
    expect(sql).toContain('("o"."seller_id" in ($1) or "o"."customer_id" in ($2))');
    expect(sql).toContain(
      'where "i"."order_id" = "o"."id" and ("i"."quantity" > $3 and ("i"."seller_id" in ($4) or "i"."customer_id" in ($5))))',
    );
  });

  it('does not push a scope into items when an alternative has no item column', () => {
    const { sql } = ordersSql(
      { 'items.quantity[gt]': '2' },
      {
        anyOf: [
          { field: 'seller', in: [SELLER] },
          { field: 'amount', in: [5] },
        ],
      },
    );
    expect(sql).toContain('where "i"."order_id" = "o"."id" and ("i"."quantity" > $3))');
  });

  it('checks contains on each row walked when a seller or customer narrows the list', () => {
    const named = { 'customerName[contains]': 'Zoë_%' };
    expect(ordersSql({ ...named, seller: SELLER }).sql).toContain(
      'strpos(lower("o"."customer_name" collate "und-x-icu"), $1) > 0',
    );
    expect(ordersSql({ ...named, seller: SELLER }).parameters[0]).toBe('zoë_%');
    expect(ordersSql({ ...named, customer: SELLER }).sql).toContain('strpos(');
    // Without one, or with several sellers, the trigram index may serve it (LIKE).
    for (const query of [named, { ...named, 'seller[in]': `${SELLER},${OTHER}` }]) {
      const { sql, parameters } = ordersSql(query);
      expect(sql).toContain('lower("o"."customer_name" collate "und-x-icu") like $1');
      expect(parameters[0]).toBe('%zoë\\_\\%%');
    }
  });

  it('matches nothing for an empty scope', () => {
    expect(ordersSql({}, { anyOf: [] }).sql).toContain('where (false)');
  });

  it('makes notEqual, nin and doesNotContain match empty fields', () => {
    const { sql } = ordersSql({
      'customerEmail[notEqual]': 'a@b.c',
      'customer[nin]': SELLER,
      'customerEmail[doesNotContain]': 'x',
    });
    expect(sql).toContain('"o"."customer_email" is distinct from $1');
    expect(sql).toContain('("o"."customer_id" is null or "o"."customer_id" not in ($2))');
    expect(sql).toContain(
      '("o"."customer_email" is null or lower("o"."customer_email" collate "und-x-icu") not like $3)',
    );
  });

  it('binds datetimes as ISO strings and exists as null checks', () => {
    const { sql, parameters } = ordersSql({
      'createdAt[gt]': '2019-11-08T10:00:00+01:00',
      'customer[exists]': 'false',
    });
    expect(sql).toContain('"o"."created_at" > $1 and "o"."customer_id" is null');
    expect(parameters[0]).toBe('2019-11-08T09:00:00.000Z');
  });

  it('sorts with the id tie-break and pages by offset', () => {
    const { sql, parameters } = ordersSql({ sort: '-amount', limit: '5', skip: '10' });
    expect(sql).toContain('order by "o"."amount" desc, "o"."id" desc limit $1 offset $2');
    expect(parameters).toEqual([6, 10]);
  });

  it('treats an id list as a set: equals/in contain, nin contains none', () => {
    const { sql, parameters } = eventsSql({ guides: SELLER, 'guides[nin]': `${SELLER},${SELLER}` });
    expect(sql).toContain('"e"."guide_ids" @> $1::text[]');
    expect(sql).toContain('not coalesce("e"."guide_ids" && $2::text[], false)');
    expect(parameters.slice(0, 2)).toEqual([[SELLER], [SELLER, SELLER]]);
  });

  it('compiles the computed open field to the indexed expression', () => {
    // The expression events_open_seats indexes: 0 for an event closed by hand.
    expect(eventsSql({ 'open[gte]': '2' }).sql).toContain(
      '(case when "e"."manual" is false then 0 else "e"."max" - "e"."reserved" end) >= $1',
    );
  });

  it('checks the scope on each row beside an experience, which picks the rows by its own index', () => {
    const scope = { anyOf: [{ field: 'seller', in: [SELLER] }] };
    const range = { 'start[range]': '2030-01-01T00:00:00Z,2030-02-01T00:00:00Z' };
    const picked = eventsSql({ experience: OTHER, ...range }, scope);
    expect(picked.sql).toContain('"e"."experience_id" = $');
    expect(picked.sql).toContain('(("e"."seller_id" in ($4)) is true)');
    expect(picked.parameters[3]).toBe(SELLER);
    // Without one, the scope stays an index condition (a seller's departures, by its index).
    const walked = eventsSql(range, scope).sql;
    expect(walked).toContain('("e"."seller_id" in ($3))');
    expect(walked).not.toContain('is true');
    // Any other operator on the experience does not pick few rows.
    expect(eventsSql({ 'experience[nin]': OTHER, ...range }, scope).sql).not.toContain('is true');
  });

  it("lets a list be prepared unless a filter's plan depends on its value", () => {
    const prepare = (query: Record<string, string>) =>
      compile(orderList, plan(parse(query), orderList), 'all').prepare;
    expect(prepare({ seller: SELLER, 'items.arrival[range]': '2030-01-01,2030-01-03' })).toBe(true);
    expect(prepare({ 'arrival[in]': '2030-01-01,2030-01-02', sort: 'amount' })).toBe(true);
    for (const operator of ['contains', 'startsWith', 'endsWith', 'doesNotContain'])
      expect(prepare({ arrival: '2030-01-01', [`customerName[${operator}]`]: 'ann' })).toBe(false);
    // Beside a seller, `contains` is a row check (strpos), whose plan is the same for any value.
    expect(prepare({ seller: SELLER, 'customerName[contains]': 'ann' })).toBe(true);
    for (const operator of ['startsWith', 'endsWith', 'doesNotContain'])
      expect(prepare({ seller: SELLER, [`customerName[${operator}]`]: 'ann' })).toBe(false);
    expect(prepare({ 'seller[in]': SELLER, 'customerName[contains]': 'ann' })).toBe(false);
  });
});
