/**
 * Xola's event operations (docs/events.md):
 *
 * - `manual`: a departure opened or closed by hand. `true` opens it for booking even where
 *   the experience's schedules do not (Xola's "reopen as manual"); `false` closes it to new
 *   bookings whatever its seats; null (every existing event) follows the schedules.
 * - `guide_statuses`: each assigned guide's acknowledgement (`pending`, `confirmed`,
 *   `declined`; v2018-06-26), keyed by guide id. The guides stay listed in `guide_ids`, in
 *   the order they were assigned; a guide missing here is `confirmed`, which is what every
 *   assignment made before this migration meant.
 * - `open` (seats still bookable) is 0 for an event closed by hand: its index follows.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table events
      add column manual boolean,
      add column guide_statuses jsonb not null default '{}'`.execute(db);
  // The `manual` filter: few events are ever opened or closed by hand.
  await sql`create index events_manual on events (manual) where manual is not null`.execute(db);
  // `open` (the seats still bookable) is 0 for a closed event: the filter's expression.
  await sql`drop index events_open`.execute(db);
  await sql`
    create index events_open_seats on events
      ((case when manual is false then 0 else max - reserved end))`.execute(db);
}
