/**
 * `events_opened_by_hand`: the events opened by hand of an experience in a time range, which
 * availability counts into its bound before it reads any departure (src/modules/events/
 * departure-bound.ts). Without it the count walked every event of the experience in the
 * range (`events (experience_id, starts_at)`) and read each row for its `manual`, on every
 * availability request, the checkout widget's first. Partial: a booking's event is not
 * opened by hand, so a booking pays nothing for it.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index events_opened_by_hand on events (experience_id, starts_at)
    where manual`.execute(db);
}
