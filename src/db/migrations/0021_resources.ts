/**
 * Resources shared by experiences (issue 29, docs/resources.md): a boat of 12, a van of 8.
 *
 * - `resources`: a seller's resource and its capacity (seats at any one moment).
 * - `experiences.resources`: the resources an experience's departures use,
 *   `[{resource: {id}, seatsPerGuest}]`, kept on the experience row like its guest types (a
 *   booking reads that row already).
 * - `resource_seats`: what each departure holds of each resource: its window
 *   (`[starts_at, ends_at)`, the event's), seats per guest and the seats it holds (the
 *   event's reserved seats times seats per guest). A departure may take seats when, at every
 *   moment of its window, the seats held by the departures overlapping that moment and its
 *   own fit the capacity; the resource's row lock serializes those checks.
 */
import { sql, type Kysely } from 'kysely';

const ID = sql`text collate "C" not null check (id ~ '^[0-9a-f]{24}$')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const run = (query: ReturnType<typeof sql>) => query.execute(db);

  await run(sql`
    create table resources (
      id ${ID} primary key,
      seller_id text collate "C" not null references users (id),
      name text collate "C" not null check (char_length(name) between 1 and 200),
      capacity integer not null check (capacity between 0 and 100000),
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null
    )`);
  await run(sql`create index resources_seller_created on resources (seller_id, created_at, id)`);
  await run(sql`create index resources_created on resources (created_at, id)`);
  await run(sql`create index resources_name on resources (name)`);
  await run(sql`create index resources_capacity on resources (capacity)`);

  await run(sql`alter table experiences add column resources jsonb not null default '[]'`);

  await run(sql`
    create table resource_seats (
      resource_id text collate "C" not null references resources (id),
      event_id text collate "C" not null references events (id) on delete cascade,
      starts_at timestamptz(3) not null,
      ends_at timestamptz(3) not null,
      seats_per_guest integer not null check (seats_per_guest > 0),
      seats integer not null check (seats >= 0),
      primary key (resource_id, event_id)
    )`);
  await run(
    sql`create index resource_seats_window on resource_seats (resource_id, starts_at, ends_at)`,
  );
  await run(sql`create index resource_seats_event on resource_seats (event_id)`);
}
