/** All SQL on check-ins (`checkins`): every arrival recorded at the dock, undone by a stamp. */
import type { Kysely, Selectable } from 'kysely';
import type { CheckinsTable, DB } from '../../db/types.js';

export type CheckinRow = Selectable<CheckinsTable>;

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
