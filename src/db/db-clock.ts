/**
 * Times computed by the database: the one clock every instance sharing it agrees on, so
 * leases and retry schedules never depend on a process's clock.
 */
import { sql } from 'kysely';

/** `now() + ms`, computed by the database. */
export const fromNow = (ms: number) =>
  sql<Date>`now() + cast(${Math.max(0, Math.round(ms))} as double precision) * interval '1 millisecond'`;

/** `now() - ms`, computed by the database. */
export const ago = (ms: number) =>
  sql<Date>`now() - cast(${Math.max(0, Math.round(ms))} as double precision) * interval '1 millisecond'`;

/**
 * The ids made before `now() - ms`: an id starts with its creation second as 8 hex digits
 * (db/ids.ts), so `id < idsMadeBefore(ms)` is a walk of the primary key, where no index on
 * `created_at` exists (a booking pays for none). The second is the making instance's
 * clock, which for an age in days is the same thing.
 */
export const idsMadeBefore = (ms: number) =>
  sql<string>`lpad(to_hex(floor(extract(epoch from now()) - ${Math.max(0, Math.round(ms)) / 1000}::double precision)::bigint), 8, '0')`;
