/**
 * Times computed by the database: the one clock every instance sharing it agrees on, so
 * leases and retry schedules never depend on a process's clock.
 */
import { sql } from 'kysely';

/** `now() + ms`, computed by the database. */
export const fromNow = (ms: number) =>
  sql<Date>`now() + cast(${Math.max(0, Math.round(ms))} as double precision) * interval '1 millisecond'`;
