/**
 * Publishable keys (docs/security.md): keys a seller puts in web pages for its checkout
 * button. They are public by design, so they are stored as they are (the seller can read
 * them back); what they may do is limited in code (modules/checkout). Revoking stamps
 * `revoked_at`; a revoked key is refused at once.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table publishable_keys (
      id text collate "C" not null primary key check (id ~ '^[0-9a-f]{24}$'),
      seller_id text collate "C" not null references users (id) on delete cascade,
      key text collate "C" not null unique,
      label text not null default '',
      created_at timestamptz(3) not null default now(),
      revoked_at timestamptz(3)
    )`.execute(db);
  await sql`create index publishable_keys_seller on publishable_keys (seller_id, id)`.execute(db);
}
