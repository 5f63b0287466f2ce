/** Users: accounts, encrypted API keys (with a digest for lookup) and metadata. */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table users (
      id text collate "C" primary key check (id ~ '^[0-9a-f]{24}$'),
      name text not null,
      email text not null,
      password_hash text not null,
      roles text[] not null default '{}',
      api_key_digest bytea not null,
      api_key_ciphertext bytea not null,
      api_version date not null,
      metadata jsonb not null default '{}'::jsonb,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create unique index users_email_key on users (lower(email))`.execute(db);
  await sql`create unique index users_api_key_digest_key on users (api_key_digest)`.execute(db);
}
