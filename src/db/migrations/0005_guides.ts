/**
 * Guide profiles: what confirmation emails show about a guide, its availability schedules
 * (kept with the profile, read and written through it), and an optional linked user. A
 * deleted guide is kept (deleted_at) so past events still name it; it leaves future events.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const run = (query: ReturnType<typeof sql>) => query.execute(db);
  await run(sql`
    create table guides (
      id text collate "C" primary key check (id ~ '^[0-9a-f]{24}$'),
      seller_id text collate "C" not null references users (id),
      user_id text collate "C" references users (id) on delete set null,
      name text collate "C" not null,
      email text collate "C",
      phone text,
      bio text not null default '',
      picture text,
      schedules jsonb not null default '[]'::jsonb,
      deleted_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`);
  // One live profile per user and seller: the 2018-02-26 version maps user ids to it.
  await run(
    sql`create unique index guides_seller_user on guides (seller_id, user_id) where deleted_at is null`,
  );
  await run(sql`create index guides_seller_id on guides (seller_id, id)`);
  await run(sql`create index guides_user_id on guides (user_id)`);
  await run(sql`create index guides_name on guides (name)`);
  await run(
    sql`create index guides_name_trgm on guides using gin (name gin_trgm_ops) with (fastupdate = off)`,
  );
  await run(sql`create index guides_email on guides (email)`);
  await run(
    sql`create index guides_email_trgm on guides using gin (email gin_trgm_ops) with (fastupdate = off)`,
  );
  await run(sql`create index guides_created_at on guides (created_at)`);
}
