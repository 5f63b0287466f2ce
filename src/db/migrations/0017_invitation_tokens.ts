/**
 * Invitations by email are accepted only with the secret token the invitation email carries
 * (docs/security.md, "Invitations"): sign-up never proves an address, so linking an
 * invitation to whoever registered the address let a stranger take it.
 *
 * - `delegates.invitation_digest`: SHA-256 of the live token (the token itself is never
 *   stored in the clear), with `invitation_expires_at`; both cleared on acceptance (single
 *   use) and replaced when the seller invites the address again (the old token is void).
 * - Invitations linked to an account at sign-up but not accepted are unlinked: they have no
 *   token, so they cannot be accepted until the seller invites the address again. A check
 *   keeps an invitation not accepted without an account from now on.
 * - `outbox.delegate_id` and `outbox.secret`: the invitation email, with its token sealed
 *   under the server secret (AES-256-GCM, as API keys are) until it is sent.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const run = (query: ReturnType<typeof sql>) => query.execute(db);
  await run(sql`alter table delegates add column invitation_digest bytea`);
  await run(sql`alter table delegates add column invitation_expires_at timestamptz(3)`);
  await run(sql`update delegates set user_id = null, updated_at = now()
    where email is not null and accepted_at is null and user_id is not null`);
  await run(sql`alter table delegates add constraint delegates_unaccepted_unlinked
    check (email is null or accepted_at is not null or user_id is null)`);
  await run(sql`alter table delegates add constraint delegates_token_expires
    check ((invitation_digest is null) = (invitation_expires_at is null))`);
  // It served linking at sign-up, which is gone.
  await run(sql`drop index delegates_pending_email`);

  await run(sql`alter table outbox drop constraint outbox_kind_check`);
  await run(sql`alter table outbox add constraint outbox_kind_check
    check (kind in ('order_confirmation', 'order_cancellation', 'hook_disabled', 'delegate_invitation'))`);
  await run(
    sql`alter table outbox add column delegate_id text collate "C" references delegates (id) on delete cascade`,
  );
  await run(sql`alter table outbox add column secret bytea`);
  await run(
    sql`create index outbox_delegate on outbox (delegate_id) where delegate_id is not null`,
  );
}
