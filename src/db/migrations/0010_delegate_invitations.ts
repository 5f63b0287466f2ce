/**
 * Delegations by email name an address (`email`), whether or not an account has it, and grant
 * nothing until an account with that address exists (`user_id` is linked then: at once, or
 * at sign-up). The seller is not shown which account that is until its user accepts
 * (`accepted_at`); a delegation made by user id, which needs a prior relationship, shows it
 * at once. docs/security.md says why.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const run = (query: ReturnType<typeof sql>) => query.execute(db);
  await run(sql`alter table delegates alter column user_id drop not null`);
  await run(sql`alter table delegates add column email text collate "C"`);
  await run(sql`alter table delegates add column accepted_at timestamptz(3)`);
  await run(sql`alter table delegates drop constraint delegates_check`);
  await run(sql`alter table delegates add constraint delegates_names_someone
    check (user_id is not null or email is not null)`);
  await run(sql`alter table delegates add constraint delegates_not_self
    check (seller_id <> user_id)`);
  await run(sql`alter table delegates add constraint delegates_email_lowercase
    check (email = lower(email))`);
  await run(
    sql`alter table delegates add constraint delegates_seller_email unique (seller_id, email)`,
  );
  await run(sql`create index delegates_pending_email on delegates (email) where user_id is null`);
}
