/**
 * All SQL on check-ins (`checkins`): every arrival recorded at the dock, undone by a stamp.
 * Reads of the trail join the guest's ticket, its order's code and name and its item's
 * departure (the orders module's tables), which the check-in object shows: one query a page.
 */
import type { Kysely, Selectable } from 'kysely';
import { listSource } from '../../db/list-source.js';
import type { CheckinsTable, DB } from '../../db/types.js';
import type { ListSource } from '../../query/run.js';

export type CheckinRow = Selectable<CheckinsTable>;

/** A check-in with what its object shows of the guest's booking. */
export type CheckinWithBooking = CheckinRow & {
  ticket_code: string;
  demographic_id: string | null;
  item_id: string;
  short_code: string;
  customer_name: string;
  arrival: string;
  arrival_time: number;
  item_demographics: unknown;
};

export function checkinsRepository(db: Kysely<DB>) {
  return {
    async insert(rows: readonly CheckinRow[]): Promise<void> {
      if (rows.length > 0)
        await db
          .insertInto('checkins')
          .values([...rows])
          .execute();
    },

    async findById(id: string): Promise<CheckinRow | undefined> {
      return db.selectFrom('checkins').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** The trail, a page at a time, each check-in with its guest's booking. */
    listSource(): ListSource<CheckinWithBooking> {
      return listSource(
        () =>
          db
            .selectFrom('checkins as c')
            .innerJoin('order_guests as g', 'g.id', 'c.guest_id')
            .innerJoin('order_items as i', 'i.id', 'g.item_id')
            .innerJoin('orders as o', 'o.id', 'c.order_id'),
        (q) =>
          q
            .selectAll('c')
            .select([
              'g.ticket_code',
              'g.demographic_id',
              'g.item_id',
              'o.short_code',
              'o.customer_name',
              'i.arrival',
              'i.arrival_time',
              'i.demographics as item_demographics',
            ]),
      );
    },

    /** The check-ins of these guests not undone (at most one each: checkins_guest_live). */
    async liveOf(guestIds: readonly string[]): Promise<CheckinRow[]> {
      if (guestIds.length === 0) return [];
      return db
        .selectFrom('checkins')
        .selectAll()
        .where('guest_id', 'in', guestIds)
        .where('undone_at', 'is', null)
        .execute();
    },

    /** Undoes check-ins not undone yet. */
    async undo(ids: readonly string[], at: Date, by: string | null): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable('checkins')
        .set({ undone_at: at, undone_by: by })
        .where('id', 'in', ids)
        .where('undone_at', 'is', null)
        .execute();
    },
  };
}
