/**
 * All SQL on reseller bookings (`reseller_bookings`: what an OCTo booking records beside its
 * order) and their seats' own uuids (`reseller_booking_seats`, beside `order_guests`).
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, ResellerBookingsTable, ResellerBookingSeatsTable } from '../../db/types.js';
import { write } from '../../db/write-batch.js';

export type ResellerBookingRow = Selectable<ResellerBookingsTable>;
export type ResellerSeatRow = Selectable<ResellerBookingSeatsTable>;

/** A guest of a reseller's booking with its unit item's own facts, if the reseller sent any. */
export interface ResellerGuestRow {
  id: string;
  item_id: string;
  demographic_id: string | null;
  ticket_code: string;
  checked_in_at: Date | null;
  canceled_at: Date | null;
  uuid: string | null;
  reseller_reference: string | null;
  contact: Record<string, unknown> | null;
}

/** Which of a booker's bookings a list asks for. */
export type ResellerBookingsFilter =
  | { resellerReference: string }
  | { shortCode: string }
  | { arrival: { start: string; end: string } };

const json = (value: Record<string, unknown> | null) =>
  value === null ? null : JSON.stringify(value);

export function resellerBookingsRepository(db: Kysely<DB>) {
  return {
    /** A new booking's record: with the rest of an open write batch (the booking's statement). */
    async insert(row: Omit<ResellerBookingRow, 'expired'>): Promise<void> {
      await write(
        db,
        db.insertInto('reseller_bookings').values({ ...row, contact: json(row.contact) }),
      );
    },

    async insertSeats(rows: readonly ResellerSeatRow[]): Promise<void> {
      if (rows.length === 0) return;
      await write(
        db,
        db
          .insertInto('reseller_booking_seats')
          .values(rows.map((r) => ({ ...r, contact: json(r.contact) }))),
      );
    },

    /** The unit items' facts of an order replaced (a confirmation or change with unit items). */
    async replaceSeats(orderId: string, rows: readonly ResellerSeatRow[]): Promise<void> {
      await db.deleteFrom('reseller_booking_seats').where('order_id', '=', orderId).execute();
      if (rows.length > 0)
        await db
          .insertInto('reseller_booking_seats')
          .values(rows.map((r) => ({ ...r, contact: json(r.contact) })))
          .execute();
    },

    async findByUuid(bookerId: string, uuid: string): Promise<ResellerBookingRow | undefined> {
      return db
        .selectFrom('reseller_bookings')
        .selectAll()
        .where('booker_id', '=', bookerId)
        .where('uuid', '=', uuid)
        .executeTakeFirst();
    },

    async find(orderId: string): Promise<ResellerBookingRow | undefined> {
      return db
        .selectFrom('reseller_bookings')
        .selectAll()
        .where('order_id', '=', orderId)
        .executeTakeFirst();
    },

    async update(
      orderId: string,
      changes: Partial<Omit<ResellerBookingRow, 'order_id' | 'seller_id' | 'booker_id' | 'uuid'>>,
    ): Promise<void> {
      const { contact, ...rest } = changes;
      if (Object.keys(changes).length === 0) return;
      await db
        .updateTable('reseller_bookings')
        .set({ ...rest, ...(contact === undefined ? {} : { contact: json(contact) }) })
        .where('order_id', '=', orderId)
        .execute();
    },

    /** The hold sweeper released this order's hold: a reseller's booking shows EXPIRED. */
    async markExpired(orderId: string, at: Date): Promise<void> {
      await db
        .updateTable('reseller_bookings')
        .set({ expired: true, ended_at: at })
        .where('order_id', '=', orderId)
        .where('ended_at', 'is', null)
        .execute();
    },

    /**
     * The orders of a booker's bookings that still hold seats unconfirmed (a hold deadline,
     * passed or not), in id order: what ends when its credential is revoked.
     */
    async heldBy(bookerId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('reseller_bookings as b')
        .innerJoin('orders as o', 'o.id', 'b.order_id')
        .select('b.order_id')
        .where('b.booker_id', '=', bookerId)
        .where('b.ended_at', 'is', null)
        .where('o.hold_expires_at', 'is not', null)
        .orderBy('b.order_id')
        .execute();
      return rows.map((r) => r.order_id);
    },

    /**
     * Locks a reseller credential's row in share mode until the transaction ends, if it is
     * live (not revoked): the first statement of a reserve's booking transaction. A
     * revocation's update of that row waits for every reserve holding the lock, and the
     * release of the credential's holds that follows sees their bookings; a reserve that
     * comes after the update waits for the revocation and finds the credential revoked.
     * Share mode because the update changes no key column, so it takes FOR NO KEY UPDATE,
     * which FOR KEY SHARE would not wait for; reserves of one credential still run side by
     * side. Whether it is live.
     */
    async lockLiveCredential(resellerId: string): Promise<boolean> {
      const row = await db
        .selectFrom('reseller_credentials')
        .select('id')
        .where('id', '=', resellerId)
        .where('revoked_at', 'is', null)
        .forShare()
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Every guest the order ever had, with its unit item's facts, in seat order. */
    async guestsOf(orderId: string): Promise<ResellerGuestRow[]> {
      return db
        .selectFrom('order_guests as g')
        .leftJoin('reseller_booking_seats as s', 's.guest_id', 'g.id')
        .select([
          'g.id',
          'g.item_id',
          'g.demographic_id',
          'g.ticket_code',
          'g.checked_in_at',
          'g.canceled_at',
          's.uuid',
          's.reseller_reference',
          's.contact',
        ])
        .where('g.order_id', '=', orderId)
        .orderBy('g.position')
        .orderBy('g.id')
        .execute();
    },

    /**
     * A booker's orders matching the filter, oldest first, at most `limit`, each with the
     * number of guests it ever had (what its view is made of), counted from the index.
     */
    async orderIds(
      bookerId: string,
      filter: ResellerBookingsFilter,
      limit: number,
    ): Promise<{ orderId: string; guests: number }[]> {
      let query = db
        .selectFrom('reseller_bookings as b')
        .innerJoin('orders as o', 'o.id', 'b.order_id')
        .select('b.order_id')
        .select((eb) =>
          eb
            .selectFrom('order_guests as g')
            .select(eb.fn.countAll<number>().as('n'))
            .whereRef('g.order_id', '=', 'b.order_id')
            .as('guests'),
        )
        .where('b.booker_id', '=', bookerId);
      if ('resellerReference' in filter)
        query = query.where('b.reseller_reference', '=', filter.resellerReference);
      else if ('shortCode' in filter) query = query.where('o.short_code', '=', filter.shortCode);
      else
        query = query.where((eb) =>
          eb.exists(
            eb
              .selectFrom('order_items as i')
              .select(sql`1`.as('one'))
              .whereRef('i.order_id', '=', 'b.order_id')
              .where('i.arrival', '>=', filter.arrival.start)
              .where('i.arrival', '<=', filter.arrival.end),
          ),
        );
      const rows = await query.orderBy('o.created_at').orderBy('o.id').limit(limit).execute();
      return rows.map((r) => ({ orderId: r.order_id, guests: Number(r.guests ?? 0) }));
    },
  };
}
