/**
 * A hook hears the domain events after the last one numbered when it was made:
 * `hooks.hears_after` holds the domain events' sequence at the hook's creation, and the
 * fan-out delivers an event to a hook when the event's `seq` is greater.
 *
 * It replaced comparing the two `created_at`s, which are not from one clock: an event's is
 * the database's transaction start, a hook's the creation clock of the instance that made
 * it, which runs ahead of the wall clock through a burst of writes (db/creation-clock.ts).
 * A hook made after such a burst missed the events of its first moments, booked after its
 * creation had answered (bench/webhooks.ts on PostgreSQL: 88 of 2,000).
 *
 * The sequence's last value is read when the row is inserted (the column's default), so
 * every event numbered later is heard; one being written while the hook is made may or may
 * not be, as either order is true of it. Existing hooks keep what the old rule gave the
 * events still waiting for the fan-out (the only ones it reads again): their number is the
 * last of those made before the hook, or 0 when none was.
 */
import { sql, type Kysely } from 'kysely';

/** The last number the domain events' identity handed out, 0 before the first. */
const LAST_EVENT = sql`coalesce(pg_sequence_last_value(pg_get_serial_sequence('domain_events', 'seq')::regclass), 0)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const run = (query: ReturnType<typeof sql>) => query.execute(db);
  await run(sql`alter table hooks add column hears_after bigint`);
  await numberHooksMadeBefore(db);
  await run(sql`alter table hooks alter column hears_after set default ${LAST_EVENT}`);
  await run(sql`alter table hooks alter column hears_after set not null`);
}

/** The existing hooks' numbers: the last waiting event the old rule kept from each. */
export async function numberHooksMadeBefore(db: Kysely<unknown>): Promise<void> {
  await sql`
    update hooks set hears_after = coalesce(
      (select max(e.seq) from domain_events e
        where not e.fanned_out and e.created_at < hooks.created_at),
      0)`.execute(db);
}
