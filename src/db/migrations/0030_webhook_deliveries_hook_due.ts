/**
 * `webhook_deliveries_hook_due`: each hook's pending deliveries in the order they fall due,
 * for the dispatcher's claim (src/modules/hooks/delivery-claims.repository.ts). The claim
 * reads each hook's oldest due few and takes turns between owners, so that a slot freed by
 * a stalling owner goes to whoever holds fewest rather than to the oldest backlog
 * (review-hooks finding 3). This index is what it walks: the hooks that have pending
 * deliveries, one probe each, and a probe per hook for its due ones. In due order alone
 * (`webhook_deliveries_due`), reading past four owners at their caps with 100,000
 * deliveries waiting took 110,000 buffers a poll. Partial: a delivered or failed delivery,
 * most of the table, is not in it.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index webhook_deliveries_hook_due
    on webhook_deliveries (hook_id, next_attempt_at, event_seq) where status = 'pending'`.execute(
    db,
  );
}
