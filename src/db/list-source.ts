/**
 * The two queries behind every list: one page of rows, and the count. A repository gives
 * its base select (table, joins, columns); the compiled list query adds the rest.
 *
 * A source given a `shape` name (and its database handle) compiles each page query once
 * per shape of its fragments (query/shape.ts) and then only binds the values: building and
 * compiling the Kysely query was most of Kysely's share of a list's Node time (issue 27).
 * The first query of a shape is compiled as always and cached only if the values the shape
 * predicts are exactly the ones Kysely bound, so a base select with values of its own, or
 * any fragment the shape does not read, is simply compiled every time.
 *
 * A cached shape whose plan does not depend on its values (`CompiledList.prepare`) is also
 * sent as a prepared statement (db/prepared.ts): on PostgreSQL, parsing and planning were
 * half of such a page's database time (a seller's orders in a date window: 0.3 ms parse,
 * 0.8 ms plan, 1.2 ms run), and a generic plan skips both. The generic plan is forced
 * (db/prepared.ts says why).
 */
import {
  sql,
  type Expression,
  type SqlBool,
  type Compilable,
  type CompiledQuery,
  type Kysely,
  type SelectQueryBuilder,
} from 'kysely';
import type { CompiledList } from '../query/compile.js';
import type { ListSource } from '../query/run.js';
import { BoundedCache, sameValues, shapeOf, type Shape } from '../query/shape.js';
import { prepared } from './prepared.js';
import { readRows } from './direct-read.js';
import { withinPageBudget } from './page-budget.js';

/** Shapes a handle keeps: a few per filter combination clients really send. */
const SHAPES_PER_HANDLE = 500;

/** Per database handle: SQL text per shape, or null for a shape that cannot be cached. */
const cached = new WeakMap<object, BoundedCache<CompiledQuery | null>>();

/**
 * The shape of a compiled list, read once per CompiledList: a request that repeats another
 * gets the same immutable CompiledList (query/compiled-lists.ts), so its fragments need not
 * be walked again. Weak, so a list compiled for one request goes with it.
 */
const listShapes = new WeakMap<CompiledList, Shape | null>();

function listShape(q: CompiledList): Shape | undefined {
  let shape = listShapes.get(q);
  if (shape === undefined) listShapes.set(q, (shape = shapeOf([q.where, q.orderBy]) ?? null));
  return shape ?? undefined;
}

export interface ShapeCaching<DB> {
  /** Names the source's base select among the handle's cached shapes (`orders`). */
  shape: string;
  db: Pick<Kysely<DB>, 'executeQuery'>;
  /** false: never a prepared statement, whatever the filters (a generic plan measured worse). */
  prepare?: false;
}

/**
 * A list query narrowed to the compiled query's page: its where, order, limit and offset.
 * The limit is written into the SQL, not bound, and the offset only when there is one:
 * PostgreSQL costs a LIMIT or OFFSET it cannot see as 10 % of the rows, so a prepared
 * page's generic plan looked dearer than its custom plans and was never chosen, and every
 * page paid a fresh plan of its whole projection (0.85 ms for an order page; a seller's
 * window page took a third less of PostgreSQL's CPU with the limit written:
 * docs/performance.md, issue 27, sixteenth pass). The limit is an integer the query parser bounds (the largest
 * page plus the look-ahead row), so one shape has at most that many texts, and past
 * MAX_PREPARED (db/prepared.ts) a text runs unnamed, as it did before. The offset has no
 * bound and stays a parameter.
 */
export function pageOf<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  q: CompiledList,
): SelectQueryBuilder<DB, TB, O> {
  const page = query
    .where(q.where)
    .orderBy(q.orderBy)
    .limit(sql.lit(pageLimit(q)));
  return hasOffset(q) ? page.offset(q.offset) : page;
}

/** Whether the page skips rows: a first page's SQL has no OFFSET at all. */
const hasOffset = (q: CompiledList): boolean => q.offset > 0;

/** The page's LIMIT as written into its SQL: checked, since it is not bound. */
function pageLimit(q: CompiledList): number {
  if (!Number.isSafeInteger(q.limit) || q.limit < 1)
    throw new Error(`a page's limit must be a positive integer, not ${q.limit}`);
  return q.limit;
}

/** What a page query binds after its where's values: the offset, when it has one. */
const pageValues = (q: CompiledList): unknown[] => (hasOffset(q) ? [q.offset] : []);

/** What tells one page query's text from another's beside its fragments' shape. */
const pageKey = (q: CompiledList): string => `${q.limit}\u0000${hasOffset(q) ? 'offset' : ''}`;

/** How many rows of `base` match a where (a list's total). */
export const countOf =
  <DB, TB extends keyof DB>(base: () => SelectQueryBuilder<DB, TB, object>) =>
  async (where: Expression<SqlBool>): Promise<number> => {
    const row = await base()
      .select(sql<number>`count(*)`.as('n'))
      .where(where)
      .executeTakeFirstOrThrow();
    return Number((row as { n: number | string }).n);
  };

export function listSource<DB, TB extends keyof DB, Row>(
  base: () => SelectQueryBuilder<DB, TB, object>,
  select: (query: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, Row>,
  caching?: ShapeCaching<DB>,
): ListSource<Row> {
  const page = (q: CompiledList) => pageOf(select(base()), q);
  return {
    rows: (q: CompiledList) => (caching ? shapedRows(caching, q, page) : page(q).execute()),
    count: countOf(base),
  };
}

/**
 * One page of rows through the shape cache: `page(q)` is the page query (any query that
 * binds the list's where, then its offset if any, and no value of its own; pageOf), built and
 * compiled only for a shape not seen yet.
 */
export async function shapedRows<DB, Row>(
  caching: ShapeCaching<DB>,
  q: CompiledList,
  page: (q: CompiledList) => Compilable<Row> & { execute(): Promise<Row[]> },
): Promise<Row[]> {
  const shape = listShape(q);
  if (!shape) return page(q).execute();
  const { db } = caching;
  let shapes = cached.get(db);
  if (!shapes) cached.set(db, (shapes = new BoundedCache(SHAPES_PER_HANDLE)));
  const key = `${caching.shape}\u0000${pageKey(q)}\u0000${shape.key}`;
  const values = [...shape.values, ...pageValues(q)];
  const known = shapes.get(key);
  if (known === null) return page(q).execute();
  if (known) {
    const query = { ...known, parameters: values };
    const prepare = q.prepare && caching.prepare !== false;
    return readRows<Row>(db, prepare ? prepared(query, 'reads', { plan: 'generic' }) : query);
  }
  const compiled = page(q).compile();
  // Cached only if the shape read from the fragments is the one of the Kysely nodes they
  // stand for (the text compiled), and the values it predicts are the ones Kysely bound.
  const nodes = shapeOf([q.where.toOperationNode(), q.orderBy.toOperationNode()]);
  const trusted = nodes?.key === shape.key && sameValues(compiled.parameters, values);
  shapes.set(key, trusted ? compiled : null);
  return readRows<Row>(db, compiled);
}

/** A list row as an id and the object's JSON text. */
export interface TextRow {
  id: string;
  json: string;
}

/**
 * A page of `rows` (pageOf: the table's rows under `alias`, the look-ahead row included)
 * as ids and view texts, `json` (the view over `alias`) built for the page's own rows only:
 * the look-ahead row, there only to say whether a next page exists, gets an empty text,
 * never read (runList trims it). Building it was one view in 21 for nothing: on the
 * order pages, up to 6-8 % of PostgreSQL's time (docs/performance.md, issue 27,
 * twenty-first pass).
 * The rows are numbered in the order their page query returns them, as the aggregates of
 * textListSource read them.
 */
export function viewedPage<DB, S, TB extends keyof S>(
  db: Kysely<DB>,
  rows: SelectQueryBuilder<S, TB, { id: string }>,
  alias: string,
  json: string,
  q: CompiledList,
): SelectQueryBuilder<object, never, TextRow> {
  // The outer queries read only the page's own columns: no table of the schema.
  const outer = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const numbered = outer
    .selectFrom(rows.as('p'))
    .selectAll('p')
    .select(sql<number>`row_number() over ()`.as('page_row'));
  const row = (column: string) => sql.ref(`${alias}.${column}`);
  const viewed = outer
    .selectFrom(numbered.as(alias))
    .select([
      sql.ref<string>(`${alias}.id`).as('id'),
      sql.ref<number>(`${alias}.page_row`).as('page_row'),
      sql<string>`case when ${row('page_row')} < ${sql.lit(pageLimit(q))} then (${sql.raw(json)})::text else '' end`.as(
        'json',
      ),
    ])
    // A fence: without it PostgreSQL pulls this query up into the next, and the view's
    // expression, read twice there (its length, then itself), was built twice: half again of
    // an order page's database time (docs/performance.md, thirtieth pass).
    .offset(sql.lit(0));
  // Past the page's byte budget a row's text is left out too: the page ends before it.
  return outer
    .selectFrom(viewed.as('v'))
    .select([
      sql.ref<string>('v.id').as('id'),
      sql<string>`case when ${withinPageBudget(sql.ref('v.json'), sql.ref('v.page_row'))} then v.json else '' end`.as(
        'json',
      ),
    ]);
}

/** A row `viewedPage` left out: past the byte budget (or the look-ahead row, never asked). */
const pastBudget = (row: TextRow): boolean => row.json === '';

/** Never in an id nor raw in JSON text (PostgreSQL escapes control characters as \u0001). */
const SEPARATOR = '\u0001';
/**
 * Pages of at most this many rows (a default page and its look-ahead row) come as one row.
 * Larger pages keep a row per object: a 100-row page as one row made one string of about
 * 160 KB per request, and the server's CPU per 100-row page rose from 1.8 to 2.6 ms
 * (docs/performance.md, issue 27, eighth pass).
 */
export const ONE_ROW_AT_MOST = 21;

/**
 * A list whose rows are an id and the object's JSON text (`page` is the page query, one
 * such row per object, binding no value of its own), each page fetched as one row: the
 * page's ids and its texts, each joined by SEPARATOR in the order the page query returns
 * them, split again here. PostgreSQL writes its answer in 8 KB flushes, so a page of 20
 * orders sent as 21 rows (about 33 KB) reached Node in three or four reads, each a wake-up
 * of the event loop and a partial message for node-postgres to buffer; as one row it is
 * written whole and read at once, as the floor's page is (docs/performance.md, issue 27,
 * eighth pass); larger pages come a row per object (ONE_ROW_AT_MOST). Both aggregates
 * read the same rows in one pass, so ids and texts stay paired, in the page query's order
 * (as PostgREST's aggregates over an ordered subquery do).
 */
export function textListSource<DB>(
  db: Kysely<DB>,
  page: (q: CompiledList) => SelectQueryBuilder<object, never, TextRow>,
  count: (where: Expression<SqlBool>) => Promise<number>,
  shape: string,
): ListSource<TextRow> {
  // The outer query reads only the page's own columns: no table of the schema.
  const outer = db as unknown as Kysely<Record<string, never>>;
  const inOneRow = (q: CompiledList) =>
    outer
      .selectFrom(page(q).as('p'))
      .select([
        sql<string | null>`string_agg(p.id, chr(1))`.as('ids'),
        sql<string | null>`string_agg(p.json, chr(1))`.as('texts'),
      ]);
  return {
    rows: async (q: CompiledList) => {
      if (q.limit > ONE_ROW_AT_MOST) return shapedRows({ shape: `${shape}-rows`, db }, q, page);
      const [one] = await shapedRows({ shape, db: outer }, q, inOneRow);
      if (!one?.ids || one.texts === null) return [];
      const texts = one.texts.split(SEPARATOR);
      return one.ids.split(SEPARATOR).map((id, i) => ({ id, json: texts[i]! }));
    },
    count,
    cut: pastBudget,
  };
}
