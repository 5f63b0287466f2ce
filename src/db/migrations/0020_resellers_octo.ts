/**
 * Resellers and OCTo bookings (issue 25, docs/octo.md).
 *
 * - `reseller_credentials`: the named Bearer credentials a seller issues to its resellers
 *   (Xola's affiliates). Stored like API keys: the SHA-256 digest to look a secret up, the
 *   secret sealed under the server secret (AES-256-GCM, bound to the credential's id), so a
 *   leaked database alone leaks no usable credential. Revoking stamps `revoked_at`.
 * - `reseller_bookings`: what an OCTo booking records beside its order (one item): who booked
 *   (`booker_id`: the reseller credential, or the seller itself with its own key), the
 *   reseller's `uuid` (unique per booker: a repeated reserve is the same booking only with
 *   the same body, `request_digest`), its reference and contact as sent, when it was
 *   confirmed, and how it ended (cancelled with a reason, or expired by the hold sweeper).
 * - `reseller_booking_seats`: a unit item's own uuid, reference and contact, beside the guest
 *   (issue 29's `order_guests`) that is its seat.
 * - `hooks.reseller_id`: a webhook registered by a reseller (octo/webhooks: booking_update,
 *   availability_update); it belongs to the reseller's seller and ends with the credential.
 *   The unique (owner, event, url) becomes unique per reseller too.
 */
import { sql, type Kysely } from 'kysely';

const ID = sql`text collate "C" not null check (id ~ '^[0-9a-f]{24}$')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const run = (query: ReturnType<typeof sql>) => query.execute(db);

  await run(sql`
    create table reseller_credentials (
      id ${ID} primary key,
      seller_id text collate "C" not null references users (id) on delete cascade,
      name text not null check (char_length(name) between 1 and 100),
      key_digest bytea not null,
      key_ciphertext bytea not null,
      commission_bps integer check (commission_bps between 0 and 10000),
      created_at timestamptz(3) not null,
      revoked_at timestamptz(3)
    )`);
  await run(
    sql`create unique index reseller_credentials_digest on reseller_credentials (key_digest)`,
  );
  await run(
    sql`create index reseller_credentials_seller on reseller_credentials (seller_id, created_at, id)`,
  );

  await run(sql`
    create table reseller_bookings (
      order_id text collate "C" not null primary key references orders (id) on delete cascade,
      seller_id text collate "C" not null,
      booker_id text collate "C" not null,
      uuid uuid not null,
      request_digest bytea not null,
      reseller_reference text collate "C",
      contact jsonb,
      confirmed_at timestamptz(3),
      ended_at timestamptz(3),
      end_reason text,
      expired boolean not null default false
    )`);
  await run(sql`create unique index reseller_bookings_uuid on reseller_bookings (booker_id, uuid)`);
  await run(sql`
    create index reseller_bookings_reference on reseller_bookings (booker_id, reseller_reference)
      where reseller_reference is not null`);

  await run(sql`
    create table reseller_booking_seats (
      guest_id text collate "C" not null primary key
        references order_guests (id) on delete cascade,
      order_id text collate "C" not null references reseller_bookings (order_id) on delete cascade,
      uuid uuid not null,
      reseller_reference text,
      contact jsonb
    )`);
  await run(sql`create index reseller_booking_seats_order on reseller_booking_seats (order_id)`);

  await run(sql`
    alter table hooks add column reseller_id text collate "C"
      references reseller_credentials (id) on delete cascade`);
  await run(sql`alter table hooks drop constraint hooks_owner_event_url`);
  await run(sql`
    alter table hooks add constraint hooks_owner_event_url
      unique nulls not distinct (owner_id, reseller_id, event_name, url)`);
}
