/**
 * What the retention sweep (src/retention.ts) walks, so that it reads only what it may
 * delete:
 *
 * - `outbox_settled`: the emails it may prune (every kind but confirmations, and
 *   confirmations never sent). A confirmation stays as long as its order, as the record of
 *   where the customer was mailed, which the cancellation email goes to; without this index
 *   each sweep read every old confirmation to find the few others. A booking's confirmation
 *   is not in it, so a booking pays nothing for it.
 * - `webhook_deliveries_event`: whether an old domain event still has a delivery (its
 *   foreign key keeps the event), one probe per event instead of a scan of the deliveries.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index outbox_settled on outbox (id)
    where kind <> 'order_confirmation' or status = 'skipped'`.execute(db);
  await sql`create index webhook_deliveries_event on webhook_deliveries (event_id)`.execute(db);
}
