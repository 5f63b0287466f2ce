/**
 * The creation clock: the `created_at` of every listed object (and every `updated_at`),
 * strictly increasing within this process, so lists in creation order (`created_at`, then
 * id) are exact for everything one instance makes, however fast. Objects made by two
 * instances in the same millisecond may tie; the id then decides, the same way every time.
 *
 * Milliseconds, not microseconds: the columns hold milliseconds and the API shows them, so
 * the value a client reads is the whole creation key and filters its object exactly
 * (docs/decisions/creation-order.md). Past 1,000 objects a second, the clock runs ahead of
 * the wall clock by the excess and falls back in step as soon as the burst ends; a later
 * stamp is always safe for the pollers' horizon (docs/query-language.md).
 *
 * A changed row's `updated_at` comes from the same clock, and never goes back past the row's
 * own stamps (`touchedAt`): a row made during another instance's burst is stamped ahead of
 * this instance's wall clock, and an `updatedAt` before the `createdAt` would be a lie.
 *
 * Take a stamp inside the transaction that writes it, never before waiting for a
 * connection: the pollers' horizon assumes a row's stamp is not older than its
 * transaction's start.
 */

import { sql, type RawBuilder } from 'kysely';
import type { DB } from './types.js';

let last = 0;

/** The next creation time: `max(now, previous + 1 ms)`. */
export function creationTime(now: number = Date.now()): Date {
  last = Math.max(now, last + 1);
  return new Date(last);
}

/** `created_at` and `updated_at` of a new row: one creation time. */
export function creationStamps(): { created_at: Date; updated_at: Date } {
  const at = creationTime();
  return { created_at: at, updated_at: at };
}

/**
 * The `updated_at` of a change to a row this transaction holds locked, whose stamp
 * (`previous`) it read: the next creation time, or just after `previous` if that is not
 * earlier. Every change gets a new stamp, never an earlier one: pollers of `updatedAt`
 * skip what they handled by id and stamp (docs/query-language.md). `touchedAt` is the same
 * rule for statements that do not read the row first.
 */
export function changeTime(previous: Date): Date {
  const next = creationTime();
  return next.getTime() > previous.getTime() ? next : new Date(previous.getTime() + 1);
}

/**
 * The `updated_at` of a row being changed, as SQL: the next creation time (or `at`, a stamp
 * the caller took for the whole write, as a booking does), or 1 ms after the
 * row's current `updated_at` if that is not earlier (written by an instance whose clock ran
 * ahead).
 */
export function touchedAt(table: keyof DB, at: Date = creationTime()): RawBuilder<Date> {
  // Qualified: in an upsert's DO UPDATE a bare name would be ambiguous with `excluded`.
  const current = sql.ref(`${table}.updated_at`);
  return sql<Date>`greatest(${at}::timestamptz, ${current} + interval '1 millisecond')`;
}
