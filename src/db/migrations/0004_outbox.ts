/**
 * The mail outbox: one row per email to send, written in the same transaction as what it
 * reports (an order's confirmation), so an email exists exactly when its order does.
 *
 * - A dispatcher claims due rows with `FOR UPDATE SKIP LOCKED` and sets a lease
 *   (`locked_until`), so instances sharing the database never work on the same row, and a
 *   row whose claimer died becomes claimable again when the lease runs out.
 * - `attempts` counts claims, not failures: a message that crashes the process each time
 *   still runs out of attempts instead of looping forever.
 * - `outbox_due` is partial on `pending`: sent rows accumulate, the claim query only ever
 *   reads the few that are waiting. `outbox_unsent` serves the CLI's listing likewise.
 * - One confirmation per order (`outbox_order_kind`): enqueueing twice cannot send twice.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table outbox (
      id text collate "C" primary key check (id ~ '^[0-9a-f]{24}$'),
      kind text collate "C" not null check (kind in ('order_confirmation')),
      order_id text collate "C" not null references orders (id),
      recipient text not null check (recipient <> ''),
      status text collate "C" not null default 'pending'
        check (status in ('pending', 'sent', 'failed')),
      attempts integer not null default 0 check (attempts >= 0),
      next_attempt_at timestamptz(3) not null default now(),
      locked_until timestamptz(3),
      last_error text,
      sent_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      check ((status = 'sent') = (sent_at is not null))
    )`.execute(db);
  await sql`create unique index outbox_order_kind on outbox (order_id, kind)`.execute(db);
  await sql`create index outbox_due on outbox (next_attempt_at, id) where status = 'pending'`.execute(
    db,
  );
  await sql`create index outbox_unsent on outbox (created_at, id) where status <> 'sent'`.execute(
    db,
  );
}
