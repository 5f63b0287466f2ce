/**
 * Events keep their local start and end as their view shows them (issue 27): the text
 * `localIso` writes from Node's zone rules, and the zone it was written in
 * (modules/events/new-event.ts says why; docs/decisions/event-local-times.md). Nullable: a
 * release before this one writes events without them, and such a row is shown from Node's
 * rules and filled. The events already there are filled after the migrations (migrate-all.ts),
 * with the module's own code, which a migration may not import.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table events
      add column local_zone text collate "C",
      add column local_start text collate "C",
      add column local_end text collate "C"`.execute(db);
}
