/** All SQL on order guests (`order_guests`): one row per seat of an order item. */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { insertRows } from '../../db/write-batch.js';
import type { DB, GuestStatus } from '../../db/types.js';
import type { GuestRow } from './guests.js';
import { ITEM_STATUS } from './item-status.js';

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
  /**
   * The order's notes' texts, cut after `notesChars` + 1 characters in all, on the order's
   * first guest of the page (null on the others: the same).
   */
  notes: string[] | null;
  item_status: number;
  item_demographics: unknown;
  item_position: number;
};

/** A guest's place in a manifest's order: by name, then booking, then seat. */
export interface ManifestKey {
  customerName: string;
  orderId: string;
  itemPosition: number;
  position: number;
  id: string;
}

/**
 * Where a page of a manifest goes on: after a place in its order as the previous page read
 * it (`key`), or after a guest's place now (`guest`: the cursors written before, which a
 * rename of the guest's order between two pages moves).
 */
export type ManifestAfter = { key: ManifestKey } | { guest: string };

/** Which page of a departure's manifest to read. */
export interface ManifestPage {
  /** Holds whose deadline is at or before it are over. */
  now: Date;
  /** Where the page goes on (null: from the first). */
  after: ManifestAfter | null;
  limit: number;
  notesChars: number;
}

interface ManifestCounts {
  booked: number;
  arrived: number;
  no_show: number;
  pending: number;
  cursor_found: boolean;
}

/** A page of a manifest: the departure's counts, whether `after` exists, the page's guests. */
export interface ManifestRead {
  counts: Omit<ManifestCounts, 'cursor_found'>;
  cursorFound: boolean;
  rows: ManifestRow[];
}

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

    /** A page of a departure's manifest (`manifestPage`, below). */
    atEvent: (
      eventId: string,
      page: ManifestPage = { now: new Date(), after: null, limit: 1000, notesChars: 1000 },
    ): Promise<ManifestRead> => manifestPage(db, eventId, page),

    /**
     * Cancels live guests; their check-ins not undone are undone in the same statement
     * (`undone_by` null: the seat was given back, nobody at the dock undid it), so the dock's
     * trail of who is in (`undoneAt[exists]=false`) never counts a seat given back.
     */
    async cancel(ids: readonly string[], at: Date): Promise<void> {
      if (ids.length > 0) await cancelGuests(db, sql`id in (${sql.join(ids)})`, at);
    },

    /** Every live guest of an order canceled (the order is), their check-ins undone (above). */
    async cancelOfOrder(orderId: string, at: Date): Promise<void> {
      await cancelGuests(db, sql`order_id = ${orderId}`, at);
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

/**
 * A page of a departure's manifest in one statement (order_guests_event): the counts of
 * all its live guests, then up to `page.limit` of them after `page.after`, by name then
 * booking, with their orders' codes and names and their items' guest types. Live: not
 * canceled, nor on a hold past its deadline (the sweeper may not have run;
 * checkin-rules.ts `heldPastDeadline`) unless checked in, since a guest on board stays
 * listed. Each order's notes are read once, on its first guest of the page, cut in SQL
 * after `page.notesChars` + 1 characters in all (guests.facade.ts marks the cut): an
 * order may carry 40 KB of notes, and a page must not read them once per seat.
 */
async function manifestPage(
  db: Kysely<DB>,
  eventId: string,
  page: ManifestPage,
): Promise<ManifestRead> {
  const live = sql`g.event_id = ${eventId} and g.canceled_at is null
      and (i.status <> ${sql.lit(ITEM_STATUS.hold)} or g.status = 'arrived'
           or o.hold_expires_at is null or o.hold_expires_at > ${page.now})`;
  const { after, cursorFound } = pageStart(eventId, page.after);
  // Each order's notes are read and cut on its first guest of the page (a case runs its
  // branch only when taken), not joined: without statistics (a fresh embedded database) the
  // planner looped the page over itself, 2,000 guests in 1.4 s where 0.1 s does. Which guest
  // is its order's first is found among the page's rows (`marked`), not in `page`: a window
  // there ran before the limit, over every guest of the departure (0.45 s a page of a
  // departure of 100,000 guests, 0.085 s without it; docs/performance.md).
  const { rows } = await sql<ManifestRow & ManifestCounts>`
      with counts as (
        select count(*)::int as booked,
               (count(*) filter (where g.status = 'arrived'))::int as arrived,
               (count(*) filter (where g.status = 'no_show'))::int as no_show,
               (count(*) filter (where g.status = 'pending'))::int as pending,
               ${cursorFound} as cursor_found
          from order_guests g
          join orders o on o.id = g.order_id
          join order_items i on i.id = g.item_id
         where ${live}
      ), page as (
        select g.*, o.short_code, o.customer_name, i.status as item_status,
               i.demographics as item_demographics, i.position as item_position
          from order_guests g
          join orders o on o.id = g.order_id
          join order_items i on i.id = g.item_id
         where ${live} and ${after}
         order by o.customer_name, g.order_id, i.position, g.position, g.id
         limit ${page.limit}
      ), marked as (
        select p.*, row_number() over (partition by p.order_id
                                        order by p.item_position, p.position, p.id) = 1
                 as first_of_order
          from page p
      )
      select c.*, p.*,
             case when p.first_of_order then (
               select coalesce(jsonb_agg(left(n.text, ${page.notesChars + 1}::int - n.before) order by n.ord), '[]'::jsonb)
                 from (select e->>'text' as text, x.ord,
                              coalesce(sum(length(e->>'text')) over (order by x.ord
                                rows between unbounded preceding and 1 preceding), 0)::int as before
                         from orders o, jsonb_array_elements(o.notes) with ordinality as x(e, ord)
                        where o.id = p.order_id) n
                where n.before <= ${page.notesChars})
             end as notes
        from counts c
        left join marked p on true
       order by p.customer_name, p.order_id, p.item_position, p.position, p.id`.execute(db);
  const first = rows[0]!;
  return {
    counts: {
      booked: first.booked,
      arrived: first.arrived,
      no_show: first.no_show,
      pending: first.pending,
    },
    cursorFound: first.cursor_found,
    // No guest on the page: the one row is the counts' alone.
    rows: rows.filter((r) => r.id !== null),
  };
}

/**
 * Where a manifest page starts (`after`, a condition on `o`, `g`, `i`) and whether its
 * cursor is known (`cursorFound`). A key is compared as the previous page read it, so a
 * guest whose order was renamed since is at worst listed twice, never skipped; a key names
 * no row, so it is always found. A guest's id is compared at its place now, and must be
 * of this departure: another's (another seller's) is as unknown as none.
 */
function pageStart(
  eventId: string,
  start: ManifestAfter | null,
): { after: RawBuilder<unknown>; cursorFound: RawBuilder<unknown> } {
  if (start === null) return { after: sql`true`, cursorFound: sql`true` };
  if ('key' in start) {
    const k = start.key;
    // The name alone too, which the row comparison implies: the walk of orders by name
    // (orders_customer_name) then starts at the key's, not at the first of the departure.
    return {
      after: sql`o.customer_name >= cast(${k.customerName} as text) collate "C"
        and (o.customer_name, g.order_id, i.position, g.position, g.id) > (
            cast(${k.customerName} as text) collate "C", cast(${k.orderId} as text) collate "C",
            cast(${k.itemPosition} as integer), cast(${k.position} as integer),
            cast(${k.id} as text) collate "C")`,
      cursorFound: sql`true`,
    };
  }
  return {
    after: sql`(o.customer_name, g.order_id, i.position, g.position, g.id) > (
            select ao.customer_name, a.order_id, ai.position, a.position, a.id
              from order_guests a
              join orders ao on ao.id = a.order_id
              join order_items ai on ai.id = a.item_id
             where a.id = ${start.guest} and a.event_id = ${eventId})`,
    cursorFound: sql`exists (select 1 from order_guests where id = ${start.guest} and event_id = ${eventId})`,
  };
}

/** Live guests matching `which` canceled at `at`, their live check-ins undone with them. */
async function cancelGuests(db: Kysely<DB>, which: RawBuilder<unknown>, at: Date): Promise<void> {
  await sql`
    with gone as (
      update order_guests set canceled_at = ${at}
       where ${which} and canceled_at is null
      returning id)
    update checkins set undone_at = ${at}, undone_by = null
     where guest_id in (select id from gone) and undone_at is null`.execute(db);
}
