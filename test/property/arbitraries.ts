/**
 * Shared pieces of the differential property tests (test/property/*.differential.test.ts):
 *
 * - generators of data: names with the LIKE wildcards `%`, `_` and `\`, mixed case, null
 *   emails, millisecond timestamps with deliberate ties;
 * - generators of list queries built from a resource's field spec and the operator registry
 *   (every field, every operator its type allows), with values drawn from the data so that
 *   filters match, and random ones;
 * - the check: one query through HTTP, following `paging.next`, held to `evaluate` over the
 *   API objects (same ids, same order, same objects, same `next` and `total`).
 *
 * Text is ASCII on purpose: "ignoring case" is JavaScript's toLowerCase in `evaluate` and
 * ILIKE under collation "C" in PostgreSQL, which agree on ASCII letters only.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { evaluate } from '../../src/query/evaluate.js';
import { QueryError } from '../../src/query/errors.js';
import { fieldOperators, operators } from '../../src/query/operators.js';
import { parse } from '../../src/query/parse.js';
import { plan } from '../../src/query/plan.js';
import type { FieldSpec, FieldType, ResourceSpec, Scope } from '../../src/query/types.js';
import { as, type Account } from '../helpers/app.js';

export type Obj = Record<string, unknown>;

/** Fixed so that a failure replays; set PROPERTY_SEED to explore other runs. */
export const SEED = Number(process.env.PROPERTY_SEED ?? 20191105);

// ---- data ----

// Letters whose case folds outside ASCII too (ë/Ë, ø/Ø, σ/Σ/ς, ß/ẞ, İ and ı), so the
// database's folding is held to the evaluator's beyond ASCII.
const UNITS = [..."aAbBeEnNzZ019 %_\\'.-ëËøØσΣςßẞİı"];
export const textArb = (maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...UNITS), maxLength });

const NAMES = [
  'Ann Lee',
  'ann lee',
  'ANN LEE',
  'Ann_Lee',
  '100% Bob',
  'C:\\tmp\\x',
  'x\\%y\\_',
  "O'Neil",
  'Zoë Ærø',
  'ZOË ÆRØ',
  'İstanbul ΟΔΟΣ',
  'Straße',
  '',
];
export const nameArb = fc.oneof(fc.constantFrom(...NAMES), textArb(12));

const EMAILS = ['ann@example.com', 'ANN@Example.COM', 'bob_1@x.io', '100%@y.org', 'b\\s@z.net'];
export const emailArb = fc.option(
  fc.oneof(
    fc.constantFrom(...EMAILS),
    fc.tuple(textArb(6), textArb(4)).map(([a, b]) => `${a}@${b}.com`),
  ),
  { nil: null, freq: 4 },
);

const DAY = 86_400_000;
export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(date) + days * DAY).toISOString().slice(0, 10);

/** A date `YYYY-MM-DD` in `[from, from + days]`. */
export const dateArb = (from: string, days: number) =>
  fc.integer({ min: 0, max: days }).map((d) => addDays(from, d));

/** An instant at millisecond precision in `[from, from + days]`, often one of a few ties. */
export function instantArb(from: string, days: number): fc.Arbitrary<Date> {
  const start = Date.parse(from);
  const ties = [0, 1, 999, DAY / 2 + 123].map((ms) => start + ms);
  return fc
    .oneof(fc.constantFrom(...ties), fc.integer({ min: start, max: start + days * DAY }))
    .map((ms) => new Date(ms));
}

export const hexIdArb = fc.string({
  unit: fc.constantFrom(...'0123456789abcdef'),
  minLength: 24,
  maxLength: 24,
});

// ---- queries ----

export interface Filter {
  readonly key: string;
  readonly value: string;
  /** Send `+` unencoded: it arrives as a space, which datetime offsets accept. */
  readonly plainPlus?: boolean;
}

export interface Query {
  readonly filters: readonly Filter[];
  readonly sort?: string | undefined;
  readonly limit?: number | undefined;
  readonly skip?: number | undefined;
  readonly count?: boolean | undefined;
}

export function queryString(q: Query): string {
  const value = (f: Filter) =>
    f.plainPlus ? encodeURIComponent(f.value).replace(/%2B/g, '+') : encodeURIComponent(f.value);
  const parts = q.filters.map((f) => `${encodeURIComponent(f.key)}=${value(f)}`);
  if (q.sort !== undefined) parts.push(`sort=${encodeURIComponent(q.sort)}`);
  if (q.limit !== undefined) parts.push(`limit=${q.limit}`);
  if (q.skip !== undefined) parts.push(`skip=${q.skip}`);
  if (q.count !== undefined) parts.push(`count=${q.count}`);
  return parts.join('&');
}

/** Values of every field in the data (item fields over all items, id lists flattened). */
export type Pools = ReadonlyMap<string, readonly unknown[]>;

export function poolsOf(spec: ResourceSpec, objects: readonly Obj[]): Pools {
  const pools = new Map<string, unknown[]>();
  for (const field of spec.fields) {
    const sources =
      field.item && spec.items ? objects.flatMap((o) => spec.items!.read(o)) : objects;
    const values = sources
      .map((o) => field.read(o))
      .flatMap((v) => (Array.isArray(v) ? (v as unknown[]) : [v]))
      .filter((v) => v !== null && v !== undefined);
    pools.set(field.name, [...new Set(values)]);
  }
  return pools;
}

/** Mostly a value from the data (varied by `vary`), sometimes a random one. */
function fromPool<T>(
  pool: readonly unknown[],
  random: fc.Arbitrary<string>,
  vary: (v: T) => fc.Arbitrary<string>,
): fc.Arbitrary<string> {
  if (pool.length === 0) return random;
  return fc.oneof(
    { arbitrary: fc.constantFrom(...(pool as T[])).chain(vary), weight: 3 },
    { arbitrary: random, weight: 1 },
  );
}

const swapCase = (s: string) =>
  [...s].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
const CASES = [(s: string) => s, (s: string) => s.toUpperCase(), swapCase];

/** The text itself, or a prefix, suffix or middle of it, in some case. */
const textVariant = (v: string) =>
  fc.oneof(
    fc.constant(v),
    fc
      .tuple(fc.nat(v.length), fc.nat(v.length), fc.constantFrom('start', 'end', 'middle'))
      .chain(([a, b, where]) => {
        const part =
          where === 'start'
            ? v.slice(0, a)
            : where === 'end'
              ? v.slice(a)
              : v.slice(Math.min(a, b), Math.max(a, b));
        return fc.constantFrom(...CASES).map((c) => c(part));
      }),
  );

/** The instant in another notation: with an offset, a bare date, no or extra fraction. */
function withOffset(ms: number, minutes: number, colon: boolean): string {
  const local = new Date(ms + minutes * 60_000).toISOString().slice(0, -1);
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${minutes < 0 ? '-' : '+'}${hh}${colon ? ':' : ''}${mm}`;
}

function datetimeVariant(v: string): fc.Arbitrary<string> {
  const ms = Date.parse(v);
  const iso = (x: number) => new Date(x).toISOString();
  return fc.oneof(
    fc.constant(v),
    fc.constantFrom(-1000, -1, 1, 1000).map((d) => iso(ms + d)),
    fc
      .tuple(fc.constantFrom(0, 330, -210, 765, -600), fc.boolean())
      .map(([minutes, colon]) => withOffset(ms, minutes, colon)),
    fc.constant(iso(ms).slice(0, 10)),
    fc.constant(iso(ms).replace(/\.\d{3}Z$/, 'Z')),
    fc.constant(iso(ms).replace(/Z$/, '999Z')),
  );
}

const numberVariant = (v: number) =>
  fc.constantFrom(String(v), (v + 0.01).toFixed(2), (v - 0.01).toFixed(2), v.toFixed(3));
const integerVariant = (v: number) => fc.integer({ min: -1, max: 1 }).map((d) => String(v + d));

/** Valid values at the edges of each type's range (calendar ends, int4 and numeric limits). */
const EXTREMES: Partial<Record<FieldType, string[]>> = {
  date: ['0100-01-01', '1970-01-01', '9999-12-31'],
  datetime: [
    '0100-01-01T00:00:00+23:59',
    '1969-12-31T23:59:59.999Z',
    '9999-12-31T23:59:59.999Z',
    '9999-12-31T23:00:00-02:00',
  ],
  number: ['0', '0.000001', '-999999999999999.999999', '999999999999999.999999'],
  integer: ['0', '-2147483648', '2147483647'],
};

/** A random value near the data, sometimes one at the edge of the type's range. */
function randomArb(type: FieldType, near: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const extremes = EXTREMES[type];
  if (!extremes) return near;
  return fc.oneof(
    { arbitrary: near, weight: 9 },
    { arbitrary: fc.constantFrom(...extremes), weight: 1 },
  );
}

/** One raw value for `field`, as a client would write it. */
export function scalarArb(
  field: FieldSpec,
  pool: readonly unknown[],
  window: { from: string; days: number },
): fc.Arbitrary<string> {
  const { from, days } = window;
  const random = (near: fc.Arbitrary<string>) => randomArb(field.type, near);
  switch (field.type) {
    case 'id':
    case 'id-array':
      return fromPool(pool, hexIdArb, (v: string) => fc.constant(v));
    case 'string':
      return fromPool(pool, textArb(5), textVariant);
    case 'date':
      return fromPool(pool, random(dateArb(addDays(from, -2), days + 4)), (v: string) =>
        fc.integer({ min: -1, max: 1 }).map((d) => addDays(v, d)),
      );
    case 'datetime':
      return fromPool(
        pool,
        random(instantArb(from, days).map((d) => d.toISOString())),
        datetimeVariant,
      );
    case 'number':
      return fromPool(
        pool,
        random(fc.integer({ min: 0, max: 60_000 }).map((c) => String(c / 100))),
        numberVariant,
      );
    case 'integer':
      return fromPool(pool, random(fc.integer({ min: -5, max: 2400 }).map(String)), integerVariant);
    case 'boolean':
      return fc.constantFrom('true', 'false');
    case 'enum':
      return fc.constantFrom(...(field.enumValues ?? []));
  }
}

/** Order of two raw values, to make most `range` pairs ascending. */
function rawOrder(type: FieldType, a: string, b: string): number {
  const key = (s: string): number | string =>
    type === 'datetime' ? Date.parse(s) : type === 'number' || type === 'integer' ? Number(s) : s;
  const [x, y] = [key(a), key(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

export function filterArb(
  field: FieldSpec,
  pool: readonly unknown[],
  window: { from: string; days: number },
): fc.Arbitrary<Filter> {
  const one = scalarArb(field, pool, window);
  return fc.constantFrom(...fieldOperators(field)).chain((op) => {
    const arity = operators[op].arity;
    const value =
      op === 'exists'
        ? fc.constantFrom('true', 'false')
        : arity === 'list'
          ? fc.array(one, { minLength: 1, maxLength: 4 }).map((vs) => vs.join(','))
          : arity === 'pair'
            ? fc
                .tuple(one, one, fc.nat(3))
                .map(([a, b, n]) =>
                  (n > 0 && rawOrder(field.type, a, b) > 0 ? [b, a] : [a, b]).join(','),
                )
            : one;
    return fc.tuple(value, fc.boolean(), fc.boolean()).map(([v, bare, plainPlus]) => ({
      key: op === 'equals' && bare ? field.name : `${field.name}[${op}]`,
      value: v,
      plainPlus: plainPlus && field.type === 'datetime' && v.includes('+'),
    }));
  });
}

const distinct = (filters: Filter[]) =>
  filters.filter((f, i) => filters.findIndex((g) => g.key === f.key) === i);

/** Filters on distinct parameters over `fields`, with values from `pools`. */
function filtersArb(
  fields: readonly FieldSpec[],
  pools: Pools,
  window: { from: string; days: number },
  length: { minLength: number; maxLength: number },
): fc.Arbitrary<Filter[]> {
  // Text fields weigh more: case, wildcards and nulls are where the two sides could differ.
  const field = fc.oneof(
    ...fields.map((f) => ({ arbitrary: fc.constant(f), weight: f.type === 'string' ? 3 : 1 })),
  );
  const one = field.chain((f) => filterArb(f, pools.get(f.name) ?? [], window));
  return fc.uniqueArray(one, { ...length, selector: (f) => f.key });
}

/** Arrays of up to `max` filters, mostly short; each shrinks by dropping filters. */
const lengths = (min: number, ...maxima: number[]) =>
  maxima.map((maxLength) => ({ minLength: min, maxLength }));

/**
 * A list query: 0-4 filters, a sort (`field`, `-field` or `+field`), limit, skip and count,
 * each sometimes left out. Filter values come from all the data, or from one object so that
 * several filters can hold together; item filters, often two to four of them, from one item,
 * so that the "one item satisfies them all" rule decides.
 */
export function queryArb(
  spec: ResourceSpec,
  objects: readonly Obj[],
  window: { from: string; days: number },
): fc.Arbitrary<Query> {
  const fields = spec.fields.filter((f) => !f.item);
  const itemFields = spec.fields.filter((f) => f.item);
  const pools = fc.oneof(
    fc.constant(poolsOf(spec, objects)),
    fc.constantFrom(...objects).map((o) => poolsOf(spec, [o])),
  );
  const branches = [
    ...lengths(1, 1, 2, 3, 4).map((length) => ({
      arbitrary: pools.chain((p) => filtersArb(spec.fields, p, window, length)),
      weight: 3,
    })),
    { arbitrary: fc.constant<Filter[]>([]), weight: 1 },
  ];
  const items = spec.items ? objects.flatMap((o) => spec.items!.read(o)) : [];
  if (itemFields.length > 0 && items.length > 0) {
    const itemPools = fc.constantFrom(...items).map((item) => {
      const values = itemFields.map((f) => [f.name, [f.read(item)].filter((v) => v != null)]);
      return new Map(values as [string, unknown[]][]);
    });
    for (const length of [...lengths(2, 3, 3, 4), ...lengths(1, 4)]) {
      const itemFilters = fc
        .tuple(itemPools, pools)
        .chain(([ip, p]) =>
          fc
            .tuple(
              filtersArb(itemFields, ip, window, length),
              filtersArb(fields, p, window, { minLength: 0, maxLength: 1 }),
            )
            .map(([a, b]) => distinct([...a, ...b])),
        );
      branches.push({ arbitrary: itemFilters, weight: 3 });
    }
  }
  const filters = fc.oneof(...branches);
  const sortable = spec.fields.filter((f) => f.sortable && !f.item).map((f) => f.name);
  const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  return fc.record({
    filters,
    sort: maybe(
      fc.tuple(fc.constantFrom('', '-', '+'), fc.constantFrom(...sortable)).map(([d, n]) => d + n),
    ),
    limit: maybe(fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 100 }))),
    skip: fc.option(
      fc.oneof(
        { arbitrary: fc.integer({ min: 0, max: 3 }), weight: 3 },
        { arbitrary: fc.integer({ min: 0, max: 40 }), weight: 1 },
      ),
      { nil: undefined, freq: 2 },
    ),
    count: maybe(fc.boolean()),
  });
}

// ---- the check ----

/** Who asks, and what `evaluate` needs to say what they must get. */
export interface Viewer {
  readonly app: FastifyInstance;
  readonly path: string;
  readonly spec: ResourceSpec;
  readonly account: Account | null;
  readonly scope: Scope;
  /** Every object, as an admin read it back. */
  readonly objects: readonly Obj[];
  /** What this caller may ever see, said independently of the scope code. */
  readonly allowed?: (o: Obj) => boolean;
}

interface ListBody {
  data: Obj[];
  paging: { next: string | null; total?: number };
}

const recordOf = (url: string): Record<string, string> =>
  Object.fromEntries(new URL(url, 'http://test').searchParams);

function mismatch(url: string, what: string, db: string[], ev: string[], objects: readonly Obj[]) {
  const show = (id: string) => JSON.stringify(objects.find((o) => o.id === id));
  return new Error(
    [
      `${what} differ for GET ${url}`,
      `  database: [${db.join(', ')}]`,
      `  evaluate: [${ev.join(', ')}]`,
      ...db.filter((id) => !ev.includes(id)).map((id) => `  only in database: ${show(id)}`),
      ...ev.filter((id) => !db.includes(id)).map((id) => `  only in evaluate: ${show(id)}`),
    ].join('\n'),
  );
}

const ids = (objects: readonly Obj[]) => objects.map((o) => o.id as string);
const sameList = (a: string[], b: string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Runs one query as `viewer` and follows `paging.next` for up to `maxPages` pages. Each page
 * must be what `evaluate` says for that page's URL; together, the pages must be the first
 * request's result from its `skip` on, each object once. Returns the ids seen.
 */
export async function checkQuery(viewer: Viewer, query: Query, maxPages = 3): Promise<string[]> {
  const { app, spec, scope, objects, account } = viewer;
  let url: string | null = `${viewer.path}?${queryString(query)}`;
  const firstUrl = url;
  let first;
  try {
    first = plan(parse(recordOf(url)), spec);
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    // The generators aim at valid queries; a refused one must be refused alike.
    const response = await as(app, account, { method: 'GET', url });
    expect({ status: response.statusCode, code: response.json().code }).toEqual({
      status: 400,
      code: error.code,
    });
    return [];
  }
  const all = ids(evaluate(spec, { ...first, skip: 0, limit: Infinity }, scope, [...objects]).page);
  const seen: string[] = [];
  for (let page = 0; page < maxPages && url !== null; page++) {
    const response = await as(app, account, { method: 'GET', url });
    if (response.statusCode !== 200) {
      throw new Error(`GET ${url}: ${response.statusCode} ${response.body}`);
    }
    const body = response.json<ListBody>();
    const pagePlan = plan(parse(recordOf(url)), spec);
    const expected = evaluate(spec, pagePlan, scope, [...objects]);
    if (!sameList(ids(body.data), ids(expected.page))) {
      throw mismatch(url, 'ids', ids(body.data), ids(expected.page), objects);
    }
    expect(body.data).toEqual(expected.page);
    expect({ url, more: body.paging.next !== null }).toEqual({ url, more: expected.hasMore });
    expect({ url, total: body.paging.total }).toEqual({
      url,
      total: pagePlan.count ? expected.total : undefined,
    });
    if (viewer.allowed) expect(body.data.filter((o) => !viewer.allowed!(o))).toEqual([]);
    seen.push(...ids(body.data));
    url = body.paging.next;
  }
  const want = all.slice(first.skip, url === null ? undefined : first.skip + seen.length);
  if (!sameList(seen, want)) throw mismatch(firstUrl, 'pages together', seen, want, objects);
  return seen;
}

/**
 * Runs `numRuns` random queries, each as one of `viewers` (by name, so that a counterexample
 * reads well). All viewers share the spec and objects that queries are drawn from.
 */
export async function assertQueries(
  viewers: Readonly<Record<string, Viewer>>,
  window: { from: string; days: number },
  options: { numRuns: number; seed: number },
): Promise<void> {
  const { spec, objects } = Object.values(viewers)[0]!;
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...Object.keys(viewers)),
      queryArb(spec, objects, window),
      async (name, query) => {
        await checkQuery(viewers[name]!, query);
      },
    ),
    options,
  );
}

/** Every object of a collection, read through the API as `account` (page by page). */
export async function readAll(
  app: FastifyInstance,
  account: Account,
  path: string,
): Promise<Obj[]> {
  const objects: Obj[] = [];
  let url: string | null = `${path}?limit=100`;
  while (url !== null) {
    const response = await as(app, account, { method: 'GET', url });
    if (response.statusCode !== 200) throw new Error(`GET ${url}: ${response.body}`);
    const body = response.json<ListBody>();
    objects.push(...body.data);
    url = body.paging.next;
  }
  return objects;
}
