/**
 * What other modules may ask of guests (the check-in desk, manifests, OCTo's unit items), in
 * the domain's words: a guest as `GuestRecord`, never its row. Functions that change guests
 * take the `Tx` of a transaction that locked the order first (`lockOrder`), as every change
 * of an order does.
 */
import type { Executor, Tx } from '../../db/unit-of-work.js';
import type { GuestStatus } from '../../db/types.js';
import type { Sellers } from '../../domain/access.js';
import type { GuestRow } from './guests.js';
import { guestsRepository, type ManifestPage } from './guests.repository.js';
import { ordersRepository } from './orders.repository.js';
import { itemFromJson, toOrderView, type OrderView } from './orders.schemas.js';
import type { DemographicLine } from './pricing.js';

/** A guest as other modules see it: its seat, ticket, status and check-in. */
export interface GuestRecord {
  id: string;
  orderId: string;
  itemId: string;
  eventId: string;
  sellerId: string;
  /** The guest type booked; null: the experience's own price. */
  demographicId: string | null;
  ticketCode: string;
  guestStatus: GuestStatus;
  checkedInAt: Date | null;
  /** The account that checked it in. */
  checkedInBy: string | null;
  /** Its place among its item's guests. */
  position: number;
  createdAt: Date;
  /** When its seat was given back (null: live). */
  canceledAt: Date | null;
}

/** A live guest on a departure's manifest, with what the dock needs of its booking. */
export interface ManifestGuest extends GuestRecord {
  order: { id: string; shortCode: string; customerName: string; notes: string[] };
  /** The guest type's label as booked (null: the experience's own price). */
  guestType: string | null;
  /** The item's status code (100 pending, 103 on hold, 2xx confirmed). */
  itemStatus: number;
  /** The item's place among its order's (with `position`, the guest's place in the order). */
  itemPosition: number;
}

/** What a scanned code names: a guest, an item (its guests) or an order (by short code). */
export interface CodeMatch {
  kind: 'guest' | 'item' | 'order';
  id: string;
  orderId: string;
  sellerId: string;
}

/** A page of a departure's manifest: the counts of all its live guests, and the page's. */
export interface ManifestPageRead {
  counts: { booked: number; arrived: number; noShow: number; pending: number };
  cursorFound: boolean;
  guests: ManifestGuest[];
}

/**
 * Notes clipped to `max` characters (code points) in all: whole notes while they fit, then
 * the one that does not cut and ended with `…`, the rest left out.
 */
function clipNotes(notes: readonly string[], max: number): string[] {
  const kept: string[] = [];
  let left = max;
  for (const note of notes) {
    const chars = [...note];
    if (chars.length <= left) {
      kept.push(note);
      left -= chars.length;
      continue;
    }
    if (left > 0) kept.push(chars.slice(0, left).join('') + '…');
    else if (kept.length > 0) kept[kept.length - 1] += '…';
    return kept;
  }
  return kept;
}

export const toGuestRecord = (row: GuestRow): GuestRecord => ({
  id: row.id,
  orderId: row.order_id,
  itemId: row.item_id,
  eventId: row.event_id,
  sellerId: row.seller_id,
  demographicId: row.demographic_id,
  ticketCode: row.ticket_code,
  guestStatus: row.status,
  checkedInAt: row.checked_in_at,
  checkedInBy: row.checked_in_by,
  position: row.position,
  createdAt: row.created_at,
  canceledAt: row.canceled_at,
});

export const guestsFacade = {
  /** Every guest of these orders, the canceled ones too, in each item's seat order. */
  ofOrders: async (db: Executor, orderIds: readonly string[]): Promise<GuestRecord[]> =>
    (await guestsRepository(db).allOf(orderIds)).map(toGuestRecord),

  /** What a scanned code names among the orders of `sellers` (ticket codes: any seller's). */
  findCode: async (db: Executor, code: string, sellers: Sellers): Promise<CodeMatch[]> =>
    (await guestsRepository(db).findCode(code, sellers)).map((m) => ({
      kind: m.kind,
      id: m.id,
      orderId: m.order_id,
      sellerId: m.seller_id,
    })),

  /**
   * Locks an order (as changes and cancellations do) and reads it as the API shows it, the
   * time zone of each item, and every guest it ever had.
   */
  async lockOrder(
    tx: Tx,
    orderId: string,
  ): Promise<
    { order: OrderView; timezones: Map<string, string>; guests: GuestRecord[] } | undefined
  > {
    const orders = ordersRepository(tx);
    if (!(await orders.lock(orderId))) return undefined;
    const row = (await orders.findWithItems(orderId))!;
    const items = row.items.map(itemFromJson);
    const guests = await guestsRepository(tx).allOf([orderId]);
    return {
      order: toOrderView(row, items, row.guests),
      timezones: new Map(items.map((item) => [item.id, item.timezone])),
      guests: guests.map(toGuestRecord),
    };
  },

  /**
   * Sets live guests' status (`arrived` records who and when) and moves their order's
   * `updatedAt`, since the order's view shows each guest's status; the order is locked.
   */
  async setStatus(
    tx: Tx,
    orderId: string,
    ids: readonly string[],
    status: GuestStatus,
    at: Date,
    by: string | null,
  ): Promise<void> {
    if (ids.length === 0) return;
    await guestsRepository(tx).setStatus(ids, status, at, by);
    await ordersRepository(tx).touch(orderId, at);
  },

  /**
   * A page of a departure's live guests with their bookings' facts, and the counts of all of
   * them (one query; guests.repository.ts `atEvent`). Each order's notes are clipped to
   * `page.notesChars` characters in all, the last one kept ending with `…` when any was cut
   * (the order keeps them whole). `cursorFound` is false when `page.after` names a guest
   * that is none of the departure's.
   */
  async atEvent(db: Executor, eventId: string, page: ManifestPage): Promise<ManifestPageRead> {
    const read = await guestsRepository(db).atEvent(eventId, page);
    // Each order's notes come once, on its first guest of the page.
    const notes = new Map<string, string[]>();
    for (const row of read.rows)
      if (row.notes) notes.set(row.order_id, clipNotes(row.notes, page.notesChars));
    const guests = read.rows.map((row) => {
      const lines = row.item_demographics as DemographicLine[];
      const line = lines.find((l) => l.demographic.id === row.demographic_id);
      return {
        ...toGuestRecord(row),
        order: {
          id: row.order_id,
          shortCode: row.short_code,
          customerName: row.customer_name,
          notes: notes.get(row.order_id) ?? [],
        },
        guestType: line?.label ?? null,
        itemStatus: row.item_status,
        itemPosition: row.item_position,
      };
    });
    const { booked, arrived, no_show: noShow, pending } = read.counts;
    return { counts: { booked, arrived, noShow, pending }, cursorFound: read.cursorFound, guests };
  },
};

export type GuestsFacade = typeof guestsFacade;
