/**
 * A write batch's SQL text, compiled once per shape (write-batch.ts). Kysely builds an
 * operation tree for every insert and compiles it to text on every call; a booking's batch
 * (its order, items, guests, domain events and email) has the same text whenever it has as
 * many rows of each, only its parameters differ. So each write names its shape (a plain
 * insert: table, columns and row count; any other Kysely query: its own compiled text) and
 * the parameters it binds, and the batch's text is looked up by the shapes in order.
 *
 * Kysely stays the one compiler: a shape not seen yet is compiled through it, and its
 * parameters are checked against those the shapes give before the text is kept, so a
 * shape that would bind differently fails on its first use (in the tests) instead of
 * writing wrong columns.
 */
import {
  CompiledQuery,
  sql,
  type Compilable,
  type OperationNodeSource,
  type RawBuilder,
} from 'kysely';
import { COMMITS } from './pipelined-transaction.js';

/** What compiles raw SQL: any Kysely instance or transaction. */
type Compiler = Parameters<RawBuilder<unknown>['compile']>[0];

/** A write as repositories build it. */
export type KyselyWrite = Compilable & OperationNodeSource & { execute(): Promise<unknown> };

/** A write whose text depends on `shape` only; `query` builds it, when its text is needed. */
export interface ShapedWrite {
  shape: string;
  parameters: readonly unknown[];
  query: () => KyselyWrite;
}

/** A value Kysely binds as a parameter as it is (not an expression, not left out). */
const plain = (value: unknown) =>
  value === null ||
  (typeof value !== 'object' && typeof value !== 'function' && value !== undefined) ||
  value instanceof Date;

/**
 * The shape of inserting `rows`: when every row has the same columns in the same order and
 * only plain values, Kysely's text is `insert into t (columns) values ($1, ...), (...)` and
 * its parameters the rows' values in that order. Undefined otherwise (the caller then
 * writes through Kysely alone: a value left out or an expression changes the text).
 */
export function insertShape(
  table: string,
  rows: readonly object[],
  query: () => KyselyWrite,
): ShapedWrite | undefined {
  const columns = Object.keys(rows[0]!);
  const parameters: unknown[] = [];
  for (const row of rows) {
    const keys = Object.keys(row);
    if (keys.length !== columns.length) return undefined;
    for (let i = 0; i < keys.length; i++) {
      const value = (row as Record<string, unknown>)[keys[i]!];
      if (keys[i] !== columns[i] || !plain(value)) return undefined;
      parameters.push(value);
    }
  }
  return { shape: `insert ${table} (${columns.join()}) x${rows.length}`, parameters, query };
}

/**
 * Texts by the shapes of their writes; emptied when it grows past MAX_SHAPES, or past
 * MAX_SHAPE_CHARS of text: a booking's text grows with its seats (a thousand seats are about
 * 100 KB), so a count alone let bookings of many sizes pin a hundred megabytes.
 */
const texts = new Map<string, string>();
let textChars = 0;
export const MAX_SHAPES = 1000;
export const MAX_SHAPE_CHARS = 4_000_000;

/** Characters of text kept (for tests of the bound). */
export const keptShapeChars = (): number => textChars;

const sameValues = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((value, i) => Object.is(value, b[i]));

/** Kysely's statement for the writes: the last one, with the others as CTEs before it. */
function combined(db: Compiler, writes: readonly KyselyWrite[]): CompiledQuery {
  const last = writes[writes.length - 1]!;
  if (writes.length === 1) return last.compile();
  const ctes = writes.slice(0, -1).map((query, i) => sql`${sql.ref(`w${i}`)} as (${query})`);
  return sql`with ${sql.join(ctes, sql`, `)} ${last}`.compile(db);
}

/**
 * The one statement of a batch of writes (in order), its text reused per shape; when `last`,
 * marked as its transaction's last statement (COMMIT goes with it: pipelined-transaction.ts).
 */
export function compiledWrite(
  db: Compiler,
  writes: readonly (KyselyWrite | ShapedWrite)[],
  last = false,
): CompiledQuery {
  const shaped = writes.map((write): ShapedWrite => {
    if ('shape' in write) return write;
    const { sql: text, parameters } = write.compile();
    return { shape: text, parameters, query: () => write };
  });
  // NUL never occurs in SQL text nor in a table's or column's name.
  const shape = shaped.map((write) => write.shape).join('\0') + (last ? '\0last' : '');
  const parameters = shaped.flatMap((write) => write.parameters);
  const text = texts.get(shape);
  if (text !== undefined) return CompiledQuery.raw(text, parameters);
  const compiled = combined(
    db,
    shaped.map((write) => write.query()),
  );
  if (!sameValues(compiled.parameters, parameters))
    throw new Error(`write shape binds other parameters than Kysely's: ${shape}`);
  const kept = last ? compiled.sql + COMMITS : compiled.sql;
  if (texts.size >= MAX_SHAPES || textChars + kept.length > MAX_SHAPE_CHARS) {
    texts.clear();
    textChars = 0;
  }
  texts.set(shape, kept);
  textChars += kept.length;
  return CompiledQuery.raw(kept, parameters);
}
