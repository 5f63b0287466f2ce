/**
 * Guests and check-ins (issue 29, docs/operations-day.md).
 *
 * - `order_guests`: one row per seat of an order item, made with the seats (bookings, order
 *   changes) and canceled with them (`canceled_at`: the live list leaves it out, OCTo still
 *   reads what an ended item had). Each has its own unguessable `ticket_code` (like an item's:
 *   8 hex of its creation second, then 96 random bits) and a `status` (`pending`, `arrived`,
 *   `no_show`), with who checked it in and when.
 * - `checkins`: every arrival recorded (a scan or Xola's `modify`), undone by stamping
 *   `undone_at`: the audit trail of the dock. A guest has at most one check-in not undone.
 * - Orders booked before get their guests here: one per seat, each guest type's line
 *   expanded in the order booked, seats booked by plain quantity without a type; the guests
 *   of canceled items canceled when their order was last changed. Codes and ids are drawn
 *   from `gen_random_uuid()` (a strong random source, 122 bits each), hashed to hex.
 */
import { sql, type Kysely } from 'kysely';

const ID = sql`text collate "C" not null check (id ~ '^[0-9a-f]{24}$')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const run = (query: ReturnType<typeof sql>) => query.execute(db);

  await run(sql`
    create table order_guests (
      id ${ID} primary key,
      order_id text collate "C" not null,
      item_id text collate "C" not null references order_items (id) on delete cascade,
      seller_id text collate "C" not null,
      event_id text collate "C" not null references events (id),
      demographic_id text collate "C",
      ticket_code text collate "C" not null,
      status text collate "C" not null default 'pending'
        check (status in ('pending', 'arrived', 'no_show')),
      checked_in_at timestamptz(3),
      checked_in_by text collate "C",
      position integer not null,
      created_at timestamptz(3) not null,
      canceled_at timestamptz(3)
    )`);
  await run(sql`create unique index order_guests_ticket_code on order_guests (ticket_code)`);
  await run(sql`create index order_guests_order on order_guests (order_id)`);
  // The manifest: a departure's live guests.
  await run(
    sql`create index order_guests_event on order_guests (event_id) where canceled_at is null`,
  );

  await run(sql`
    create table checkins (
      id ${ID} primary key,
      seller_id text collate "C" not null,
      guest_id text collate "C" not null references order_guests (id) on delete cascade,
      order_id text collate "C" not null,
      event_id text collate "C" not null,
      source text collate "C" not null check (source in ('scan', 'modify')),
      created_at timestamptz(3) not null,
      created_by text collate "C",
      undone_at timestamptz(3),
      undone_by text collate "C"
    )`);
  await run(
    sql`create unique index checkins_guest_live on checkins (guest_id) where undone_at is null`,
  );
  await run(sql`create index checkins_guest on checkins (guest_id)`);
  await run(sql`create index checkins_seller_created on checkins (seller_id, created_at, id)`);

  await addGuestsOfOrdersBookedBefore(db);
}

/**
 * Every seat of the orders booked before: each guest type's line expanded in the order
 * booked, then the seats booked without a type. Items that have guests already are left
 * alone (exported for the test that runs it on orders booked without guests).
 */
export async function addGuestsOfOrdersBookedBefore(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into order_guests (id, order_id, item_id, seller_id, event_id, demographic_id,
                              ticket_code, status, position, created_at, canceled_at)
    select lpad(to_hex(floor(extract(epoch from o.created_at))::bigint), 8, '0')
             || left(md5(gen_random_uuid()::text), 16),
           i.order_id, i.id, i.seller_id, i.event_id, s.demographic_id,
           lpad(to_hex(floor(extract(epoch from o.created_at))::bigint), 8, '0')
             || left(md5(gen_random_uuid()::text || gen_random_uuid()::text), 24),
           'pending', s.position, o.created_at,
           case when i.status >= 300 then o.updated_at end
      from order_items i
      join orders o on o.id = i.order_id
     cross join lateral (
       select seats.demographic_id,
              (row_number() over (order by seats.line, seats.seat) - 1)::integer as position
         from (
           select l.value -> 'demographic' ->> 'id' as demographic_id, l.line, g.seat
             from jsonb_array_elements(i.demographics) with ordinality as l(value, line)
            cross join generate_series(1, (l.value ->> 'quantity')::integer) as g(seat)
           union all
           select null, 2147483647, g.seat
             from generate_series(1, i.quantity - coalesce((
                    select sum((x ->> 'quantity')::integer)::integer
                      from jsonb_array_elements(i.demographics) as x), 0)) as g(seat)
         ) seats
     ) s
     where not exists (select 1 from order_guests g where g.item_id = i.id)`.execute(db);
}
