/**
 * The kept parse, plan and compile stages of list requests (query/compiled-lists.ts): a
 * repeated request gets what the stages made the first time, and any request gets exactly
 * what running the stages afresh gives it, whatever was kept before: another scope, other
 * parameters, parameters that only look alike when joined, another link query.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderList } from '../../../src/modules/orders/orders.list.js';
import { compile } from '../../../src/query/compile.js';
import { compiledList, type CompiledListRequest } from '../../../src/query/compiled-lists.js';
import { linkAfter, linkTemplate } from '../../../src/query/paging.js';
import { parse } from '../../../src/query/parse.js';
import { plan } from '../../../src/query/plan.js';
import { shapeOf } from '../../../src/query/shape.js';
import type { Scope } from '../../../src/query/types.js';

const A = 'a'.repeat(24);
const B = 'b'.repeat(24);
const LAST = 'c'.repeat(24);
const PATH = '/api/orders';

/** What the stages made, as values to compare: the SQL's shape and values, paging, link. */
const comparable = ({ plan: p, compiled: c, link }: CompiledListRequest) => ({
  shape: shapeOf([c.where, c.orderBy]),
  limit: c.limit,
  offset: c.offset,
  count: p.count,
  next: linkAfter(link, LAST, true, p.limit),
});

/** What a request's stages make when run afresh. */
function fresh(query: Record<string, string>, scope: Scope, linkQuery = query) {
  const p = plan(parse(query), orderList);
  return comparable({
    plan: p,
    compiled: compile(orderList, p, scope),
    link: linkTemplate(PATH, linkQuery, p),
  });
}

/**
 * Asks until what is answered is kept (the same object twice in a row; one miss in eight
 * is kept, at random): not kept within 300 asks is a 4e-18 chance.
 */
function keptAnswer(query: Record<string, string>, scope: Scope, linkQuery = query) {
  // A copy, as each request's query is its own object; the link query is the query's
  // copy unless another is given.
  const ask = () => {
    const copy = { ...query };
    return compiledList(orderList, PATH, copy, scope, linkQuery === query ? copy : linkQuery);
  };
  let last = ask();
  for (let asks = 1; asks < 300; asks++) {
    const next = ask();
    if (next === last) return next;
    last = next;
  }
  throw new Error('not kept after 300 asks');
}

/** The same as `fresh`, from the kept stages. */
const kept = (query: Record<string, string>, scope: Scope, linkQuery = query) =>
  comparable(keptAnswer(query, scope, linkQuery));

/** A request's result, or the error it threw (a NUL in a value is refused, say). */
function outcome<T>(run: () => T): { value: T } | { error: string } {
  try {
    return { value: run() };
  } catch (error) {
    return { error: String(error) };
  }
}

describe('compiledList', () => {
  it('keeps a repeated request, and gives it what it kept from then on', () => {
    const query = { 'customerName[contains]': 'ann', limit: '5' };
    const answer = keptAnswer(query, 'all');
    for (let i = 0; i < 20; i++)
      expect(compiledList(orderList, PATH, { ...query }, 'all')).toBe(answer);
    expect(kept(query, 'all')).toEqual(fresh(query, 'all'));
  });

  it("never gives one scope's compiled query to another", () => {
    const query = { 'customerName[contains]': 'ann' };
    const mine: Scope = { anyOf: [{ field: 'seller', in: [A] }] };
    const theirs: Scope = { anyOf: [{ field: 'seller', in: [B] }] };
    const a = kept(query, mine);
    const b = kept(query, theirs);
    expect(a.shape!.values).toContain(A);
    expect(b.shape!.values).toContain(B);
    expect(b.shape!.values).not.toContain(A);
    expect(kept(query, 'all')).toEqual(fresh(query, 'all'));
    expect(kept(query, { anyOf: [] })).toEqual(fresh(query, { anyOf: [] }));
  });

  it('tells apart parameter sets that read alike when joined', () => {
    const pairs: Record<string, string>[][] = [
      [
        { customerName: 'a&customerName[contains]=b' },
        { customerName: 'a', 'customerName[contains]': 'b' },
      ],
      [{ customerName: '1:a' }, { customerName: '1', a: '' }],
      [{ customerName: 'a\u0000b' }, { customerName: 'a', b: '' }],
    ];
    for (const [first, second] of pairs) {
      expect(outcome(() => kept(first!, 'all'))).toEqual(outcome(() => fresh(first!, 'all')));
      expect(outcome(() => kept(second!, 'all'))).toEqual(outcome(() => fresh(second!, 'all')));
    }
  });

  it('writes the link from the link query, kept apart from the same filters without it', () => {
    const query = { 'customerName[contains]': 'ann' };
    const withSearch = { ...query, search: 'x' };
    expect(kept(query, 'all').next).not.toContain('search=');
    expect(kept(query, 'all', withSearch).next).toContain('search=x');
    expect(kept(query, 'all').next).not.toContain('search=');
  });

  it('throws the stages’ error on every request that errs, and keeps nothing of it', () => {
    for (let i = 0; i < 2; i++)
      expect(() => compiledList(orderList, PATH, { nope: '1' }, 'all')).toThrow(/nope/);
    expect(() => compiledList(orderList, PATH, { limit: ['1', '2'] }, 'all')).toThrow(/once/);
  });

  it('compiles a request with a key past the bound every time, as afresh', () => {
    const query = { 'customerName[contains]': 'x'.repeat(3000) };
    const made = new Set(
      Array.from({ length: 100 }, () => compiledList(orderList, PATH, query, 'all')),
    );
    expect(made.size).toBe(100);
    const { compiled } = compiledList(orderList, PATH, query, 'all');
    expect(shapeOf([compiled.where, compiled.orderBy])).toEqual(fresh(query, 'all').shape);
  });

  it('answers any sequence of requests as the stages run afresh would', () => {
    // Names and values drawn from a small alphabet with the key's own characters (digits,
    // colons, NUL), so that two parameter sets often join to similar text.
    const text = fc.string({ unit: fc.constantFrom('1', ':', '\u0000', 'a', ','), maxLength: 6 });
    const filter = fc.constantFrom(
      'customerName',
      'customerName[contains]',
      'customerEmail[startsWith]',
      'customerName[notEqual]',
    );
    const query = fc.dictionary(filter, text, { maxKeys: 3 });
    const scope = fc.constantFrom<Scope>(
      'all',
      { anyOf: [] },
      { anyOf: [{ field: 'seller', in: [A] }] },
      { anyOf: [{ field: 'seller', in: [B] }] },
      { anyOf: [{ field: 'seller', in: [A, B] }] },
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(query, scope), { minLength: 1, maxLength: 8 }), (requests) => {
        for (const [q, s] of requests)
          expect(outcome(() => kept(q, s))).toEqual(outcome(() => fresh(q, s)));
      }),
      { numRuns: 300 },
    );
  });
});
