/**
 * An experience's events go with it: deleting an experience is one statement, and the
 * foreign keys of order items (to the experience and to its events) refuse it once anything
 * was booked, however recently, so no check-then-delete race remains.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table events
      drop constraint events_experience_id_fkey,
      add constraint events_experience_id_fkey
        foreign key (experience_id) references experiences (id) on delete cascade`.execute(db);
}
