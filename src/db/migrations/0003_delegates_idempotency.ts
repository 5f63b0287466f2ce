/**
 * Delegates (users acting for a seller within roles) and idempotency keys (stored so that a
 * retried POST is answered once across every instance sharing the database).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table delegates (
      id text collate "C" primary key check (id ~ '^[0-9a-f]{24}$'),
      seller_id text collate "C" not null references users (id) on delete cascade,
      user_id text collate "C" not null references users (id) on delete cascade,
      roles text[] not null check (cardinality(roles) > 0),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now(),
      constraint delegates_seller_user unique (seller_id, user_id),
      check (seller_id <> user_id)
    )`.execute(db);
  await sql`create index delegates_user_id on delegates (user_id)`.execute(db);

  await sql`
    create table idempotency_keys (
      user_id text collate "C" not null references users (id) on delete cascade,
      key text collate "C" not null,
      fingerprint text not null,
      status text not null check (status in ('running', 'done')),
      response_status integer,
      response_body jsonb,
      locked_at timestamptz(3) not null default now(),
      created_at timestamptz(3) not null default now(),
      primary key (user_id, key)
    )`.execute(db);
  await sql`create index idempotency_keys_created_at on idempotency_keys (created_at)`.execute(db);
}
