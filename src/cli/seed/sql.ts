/**
 * SQL text helpers for the seeder: a seeded pseudo-random number per (row, stream), picks
 * from literal arrays with a skew, and ObjectId-shaped ids. The generated SQL only ever
 * embeds numbers the seeder computed and word lists from words.ts, never user input.
 *
 * Randomness is a hash of (row number, stream, seed) rather than `random()` after
 * `setseed()`: the same seed gives the same rows however the work is split into batches
 * or statements, and on PostgreSQL and PGlite alike (`hashint8extended` is the stable hash
 * behind hash partitioning).
 */

/** Distinct draws per row: each purpose has its own stream, so draws are independent. */
export const STREAMS = 64;

const MANTISSA_MASK = '4503599627370495'; // 2^52 - 1
const MANTISSA_SCALE = '4503599627370496.0';

/** A uniform number in [0, 1) for the row `key` (an SQL expression) on `stream`. */
export function rnd(seed: number, key: string, stream: number): string {
  if (!Number.isInteger(stream) || stream < 0 || stream >= STREAMS)
    throw new Error(`bad stream ${stream}`);
  return `((hashint8extended((${key})::int8, ${seed * STREAMS + stream}) & ${MANTISSA_MASK})::float8 / ${MANTISSA_SCALE})`;
}

/** A text[] literal. */
export function textArray(values: readonly string[]): string {
  return `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]::text[]`;
}

/** An int[] literal. */
export function intArray(values: readonly number[]): string {
  return `array[${values.map((v) => String(Math.trunc(v))).join(', ')}]::int[]`;
}

/**
 * An element of `array` (SQL text of an array literal of `length` elements) chosen by the
 * uniform `r`: skew 1 is uniform, above 1 favours the first elements (Zipf-like lists).
 */
export function pick(array: string, length: number, r: string, skew = 1): string {
  const power = skew === 1 ? r : `power(${r}, ${skew})`;
  return `(${array})[1 + floor(${power} * ${length})::int]`;
}

/** Table tags of seeded ids (6 hex digits), so ids of different tables never collide. */
export const TAG = {
  seller: '5e11e5',
  customer: 'c05700',
  guide: '9d1de0',
  experience: 'e1e100',
  schedule: '5cede0',
  event: 'e2e200',
  order: '0d0d00',
  item: '1a1a00',
  guest: '6e5700',
} as const;

/**
 * The SQL of an id in the service's layout: 8 hex digits of creation seconds (so ids sort
 * by creation time, as the default `-id` order expects), the table tag, and a 10-digit
 * counter that keeps ids unique.
 */
export function idSql(createdAt: string, tag: string, counter: string): string {
  return `(lpad(to_hex(floor(extract(epoch from ${createdAt}))::bigint), 8, '0') || '${tag}' || lpad(to_hex((${counter})::bigint), 10, '0'))`;
}
