/**
 * Xola's order flow (docs/booking.md):
 *
 * - Guest types: an experience's `demographics` (id, label, code, optional price per seat),
 *   kept on the experience row like its schedules (a booking already reads that row), and
 *   the `demographics` view that lists them for `GET /api/demographics`.
 * - Money in the currency's minor unit: prices and amounts become numeric(15, 3), so the
 *   three-decimal currencies (KWD, BHD ...) are exact too.
 * - Booking codes: every order a `short_code` (unique per seller, read aloud), every item a
 *   `ticket_code` (unique, unguessable). Orders booked before get codes here: short codes of
 *   seven characters (new ones have eight, so the two can never collide), numbered per
 *   seller; ticket codes from md5 of the id and a random number.
 * - Statuses: items 100 pending, 103 on hold, 200 confirmed, 202 confirmed not charged,
 *   203 pay later, 700 canceled (the order's own status stays `confirmed` or `canceled`).
 *   A hold's deadline is the order's `hold_expires_at`.
 * - Xola's order fields: phone, source, notes, payment method, and the adjustments a change
 *   of the order recorded.
 */
import { sql, type Kysely } from 'kysely';

/** The alphabet of short codes as of this migration (modules/orders/booking-codes.ts). */
const SHORT_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export async function up(db: Kysely<unknown>): Promise<void> {
  const run = (query: ReturnType<typeof sql>) => query.execute(db);

  await run(sql`alter table experiences alter column price type numeric(15, 3)`);
  await run(sql`alter table orders alter column amount type numeric(15, 3)`);
  await run(sql`alter table order_items alter column price type numeric(15, 3)`);
  await run(sql`alter table order_items alter column amount type numeric(15, 3)`);

  await run(sql`alter table experiences add column demographics jsonb not null default '[]'`);
  await run(sql`
    create view demographics as
    select d.value ->> 'id' as id, e.seller_id, e.id as experience_id,
           d.value ->> 'label' as label, d.value ->> 'code' as code,
           coalesce((d.value ->> 'price')::numeric(15, 3), e.price) as price,
           d.position::integer as position, e.visible, e.currency
      from experiences e
     cross join lateral jsonb_array_elements(e.demographics) with ordinality as d(value, position)`);

  await run(sql`
    alter table orders
      add column short_code text collate "C",
      add column phone text,
      add column source text collate "C",
      add column notes jsonb not null default '[]',
      add column payment_method text collate "C",
      add column adjustments jsonb not null default '[]',
      add column hold_expires_at timestamptz(3)`);
  await run(sql`
    alter table order_items
      add column ticket_code text collate "C",
      add column demographics jsonb not null default '[]'`);

  await run(sql`
    create function pg_temp.legacy_short_code(n bigint) returns text
    language plpgsql immutable as $$
    declare
      alphabet constant text := ${sql.lit(SHORT_CODE_ALPHABET)};
      code text := '';
    begin
      for i in 1..7 loop
        code := substr(alphabet, (n % 31)::integer + 1, 1) || code;
        n := n / 31;
      end loop;
      return code;
    end $$`);
  await run(sql`
    update orders o set short_code = pg_temp.legacy_short_code(r.n)
      from (select id, row_number() over (partition by seller_id order by created_at, id) as n
              from orders) r
     where r.id = o.id`);
  await run(sql`update order_items set ticket_code = md5(id || random()::text)`);
  await run(sql`alter table orders alter column short_code set not null`);
  await run(sql`alter table order_items alter column ticket_code set not null`);
  // Defaults for the release before this one, which inserts without codes while a rolling
  // deploy runs both (docs/operations.md): the service itself always sets them.
  await run(sql`
    create function booking_random_short_code() returns text
    language sql volatile as $$
      select string_agg(substr(${sql.lit(SHORT_CODE_ALPHABET)}, floor(random() * 31)::integer + 1, 1), '')
        from generate_series(1, 8)
    $$`);
  await run(
    sql`alter table orders alter column short_code set default booking_random_short_code()`,
  );
  await run(
    sql`alter table order_items alter column ticket_code set default md5(random()::text || clock_timestamp()::text)`,
  );

  await run(sql`alter table order_items drop constraint order_items_status_check`);
  await run(
    sql`alter table order_items add constraint order_items_status_check check (status in (100, 103, 200, 202, 203, 700))`,
  );

  // Unique per seller; the code leads so that a search without a seller (a customer's, an
  // admin's) finds it by the code alone, with no second index to write on every booking.
  await run(sql`create unique index orders_short_code on orders (short_code, seller_id)`);
  await run(sql`create unique index order_items_ticket_code on order_items (ticket_code)`);
  // What the hold sweeper reads: only orders that hold seats unconfirmed.
  await run(
    sql`create index orders_hold_expires_at on orders (hold_expires_at) where hold_expires_at is not null`,
  );
}
