/**
 * What the mail caps count (docs/security.md): an account's invitation emails, to an address
 * and in all, and a guest checkout key's confirmations to an address.
 *
 * - `outbox.delegate_id` is set null when its invitation is deleted, no longer deleting the
 *   emails with it: deleting an invitation and inviting again wiped the emails the caps
 *   count, so the loop mailed one address without end. An email left without its
 *   invitation is skipped if not sent (composeInvitation), as one whose invitation was
 *   removed always was.
 * - Indexes for the counts, so a booking or an invitation reads the rows of its address, not
 *   every row of a busy key's day.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table outbox drop constraint outbox_delegate_id_fkey,
    add constraint outbox_delegate_id_fkey foreign key (delegate_id)
      references delegates (id) on delete set null`.execute(db);
  await sql`create index outbox_invitations_to on outbox (sender_id, lower(recipient), created_at)
    where kind = 'delegate_invitation' and sender_id is not null`.execute(db);
  await sql`create index outbox_confirmations_to on outbox (sender_id, lower(recipient), created_at)
    where kind = 'order_confirmation' and sender_id is not null`.execute(db);
}
