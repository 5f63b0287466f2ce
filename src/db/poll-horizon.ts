/**
 * The pollers' horizon (docs/query-language.md, "Polling for changes"): the instant below
 * which no transaction still open can write a stamp. A transaction stamps `updated_at`
 * with the creation clock after it began (db/creation-clock.ts), so every stamp below the
 * start of the oldest transaction still open on this database, less a margin for the skew
 * between the instances' clocks and the database's, belongs to a committed transaction.
 * A list that a poller reads past a stamp (`updatedAt[gt]=…`) returns only rows below it,
 * so an order committed late with an older stamp is never jumped over.
 *
 * Read in a statement of its own, before the list: a transaction that commits between the
 * list's snapshot and this read would otherwise be neither open here nor visible there.
 * Sessions of other roles show no `xact_start` unless the role may read all statistics;
 * the service's writers are its own sessions. Other processes' long transactions on this
 * database (a report, a dump) hold the horizon back: pollers then see changes later, never
 * lose them. On the embedded database (one connection, no other session) it is now.
 */
import { sql } from 'kysely';
import type { Executor } from './unit-of-work.js';

export async function pollHorizon(db: Executor, marginMs: number): Promise<Date> {
  const { rows } = await sql<{ horizon: Date }>`
    select coalesce(
             (select min(xact_start) from pg_stat_activity
               where datname = current_database() and pid <> pg_backend_pid()
                 and backend_type = 'client backend'),
             now())
           - cast(${marginMs} as double precision) * interval '1 millisecond' as horizon`.execute(
    db,
  );
  return rows[0]!.horizon;
}
