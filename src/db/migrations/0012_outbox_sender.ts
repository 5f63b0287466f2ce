/**
 * Who caused each email: a customer account may send confirmations to addresses other than
 * its own only so many times an hour, so the service cannot be used to relay mail.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table outbox add column sender_id text collate "C"`.execute(db);
  await sql`create index outbox_sender_created on outbox (sender_id, created_at) where sender_id is not null`.execute(
    db,
  );
}
