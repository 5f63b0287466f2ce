/** All SQL on order guests (`order_guests`): one row per seat of an order item. */
import { sql, type Kysely } from 'kysely';
import { insertRows } from '../../db/write-batch.js';
import type { DB, GuestStatus } from '../../db/types.js';
import type { GuestRow } from './guests.js';

/** What a scanned code names: a guest, an item (its guests) or an order (by short code). */
export interface CodeMatch {
  kind: 'guest' | 'item' | 'order';
  id: string;
  order_id: string;
  seller_id: string;
}

/** A live guest on a departure's manifest, with its order's and item's facts. */
export type ManifestRow = GuestRow & {
  short_code: string;
  customer_name: string;
  notes: unknown;
  item_status: number;
  item_demographics: unknown;
};

export function guestsRepository(db: Kysely<DB>) {
  return {
    /** New guests: with the rest of an open write batch (a booking's one statement). */
    async insert(guests: readonly GuestRow[]): Promise<void> {
      await insertRows(db, 'order_guests', guests);
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

    /**
     * What a code names: a guest's or an item's ticket code (lowercase hex, unique), or the
     * short code of an order of one of `sellers` (unique per seller; `all` for admins). One
     * statement, each branch on its unique index.
     */
    async findCode(code: string, sellers: 'all' | readonly string[]): Promise<CodeMatch[]> {
      const ticket = code.toLowerCase();
      const short = code.toUpperCase();
      if (sellers !== 'all' && sellers.length === 0) return [];
      const ofSellers = sellers === 'all' ? sql`true` : sql`o.seller_id in (${sql.join(sellers)})`;
      const { rows } = await sql<CodeMatch>`
        select 'guest' as kind, g.id, g.order_id, g.seller_id
          from order_guests g where g.ticket_code = ${ticket}
        union all
        select 'item', i.id, i.order_id, i.seller_id from order_items i where i.ticket_code = ${ticket}
        union all
        select 'order', o.id, o.id, o.seller_id from orders o
         where o.short_code = ${short} and ${ofSellers}`.execute(db);
      return rows;
    },

    /**
     * A departure's live guests with their orders' names, codes and notes and their items'
     * guest types: the manifest, in one query (order_guests_event), by name then booking.
     */
    async atEvent(eventId: string): Promise<ManifestRow[]> {
      return db
        .selectFrom('order_guests as g')
        .innerJoin('orders as o', 'o.id', 'g.order_id')
        .innerJoin('order_items as i', 'i.id', 'g.item_id')
        .selectAll('g')
        .select([
          'o.short_code',
          'o.customer_name',
          'o.notes',
          'i.status as item_status',
          'i.demographics as item_demographics',
        ])
        .where('g.event_id', '=', eventId)
        .where('g.canceled_at', 'is', null)
        .orderBy('o.customer_name')
        .orderBy('o.id')
        .orderBy('i.position')
        .orderBy('g.position')
        .execute();
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
