/** All SQL on order guests (`order_guests`): one row per seat of an order item. */
import type { Kysely } from 'kysely';
import { write } from '../../db/write-batch.js';
import type { DB, GuestStatus } from '../../db/types.js';
import type { GuestRow } from './guests.js';

export function guestsRepository(db: Kysely<DB>) {
  return {
    /** New guests: with the rest of an open write batch (a booking's one statement). */
    async insert(guests: readonly GuestRow[]): Promise<void> {
      if (guests.length > 0) await write(db, db.insertInto('order_guests').values([...guests]));
    },

    /** The live guests of an order, in each item's seat order. */
    async liveOf(orderId: string): Promise<GuestRow[]> {
      return db
        .selectFrom('order_guests')
        .selectAll()
        .where('order_id', '=', orderId)
        .where('canceled_at', 'is', null)
        .orderBy('position')
        .orderBy('id')
        .execute();
    },

    /** Every guest an order ever had, the canceled ones too (what an ended item had). */
    async allOf(orderIds: readonly string[]): Promise<GuestRow[]> {
      if (orderIds.length === 0) return [];
      return db
        .selectFrom('order_guests')
        .selectAll()
        .where('order_id', 'in', orderIds)
        .orderBy('item_id')
        .orderBy('position')
        .orderBy('id')
        .execute();
    },

    /** A guest by its ticket code (any seller's: the caller's access is checked after). */
    async findByTicketCode(code: string): Promise<GuestRow | undefined> {
      return db
        .selectFrom('order_guests')
        .selectAll()
        .where('ticket_code', '=', code)
        .executeTakeFirst();
    },

    async cancel(ids: readonly string[], at: Date): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable('order_guests')
        .set({ canceled_at: at })
        .where('id', 'in', ids)
        .where('canceled_at', 'is', null)
        .execute();
    },

    /** Every live guest of an order canceled (the order is). */
    async cancelOfOrder(orderId: string, at: Date): Promise<void> {
      await db
        .updateTable('order_guests')
        .set({ canceled_at: at })
        .where('order_id', '=', orderId)
        .where('canceled_at', 'is', null)
        .execute();
    },

    /** Guests following their item to another event. */
    async moveTo(eventId: string, ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable('order_guests')
        .set({ event_id: eventId })
        .where('id', 'in', ids)
        .execute();
    },

    /**
     * Sets live guests' status: `arrived` stamps who and when, another status clears them.
     */
    async setStatus(
      ids: readonly string[],
      status: GuestStatus,
      at: Date,
      by: string | null,
    ): Promise<void> {
      if (ids.length === 0) return;
      const arrived = status === 'arrived';
      await db
        .updateTable('order_guests')
        .set({
          status,
          checked_in_at: arrived ? at : null,
          checked_in_by: arrived ? by : null,
        })
        .where('id', 'in', ids)
        .where('canceled_at', 'is', null)
        .execute();
    },
  };
}
