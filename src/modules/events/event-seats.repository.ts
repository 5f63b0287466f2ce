/**
 * The SQL of an event's seats: taken in one conditional statement (the row lock and the
 * re-check of the room together, so concurrent bookings never oversell), taken at a
 * departure that has no event yet by making it, given back, and what is left.
 */
import { sql, type Kysely, type Selectable, type SqlBool } from 'kysely';
import { creationTime, touchedAt } from '../../db/creation-clock.js';
import { prepared } from '../../db/prepared.js';
import { statement } from '../../db/statement-template.js';
import type { DB, EventsTable } from '../../db/types.js';
import type { NewEventRow } from './events.repository.js';
import { seatsOpen } from './events.schemas.js';

/**
 * Takes seats at a departure, making its event when it has none (`takeSeatsAt`): compiled
 * once (db/statement-template.ts) and prepared (db/prepared.ts), as every booking runs it;
 * its plan is the same for any values (the departure's unique index).
 */
const takeSeats = statement((db, row: NewEventRow & { quantity: number; at: Date }) => {
  const { quantity, at } = row;
  const made = db
    .insertInto('events')
    .columns([
      'id',
      'experience_id',
      'seller_id',
      'starts_at',
      'ends_at',
      'max',
      'reserved',
      'local_zone',
      'local_start',
      'local_end',
      'created_at',
      'updated_at',
    ])
    .expression(
      db
        .selectNoFrom([
          sql<string>`${row.id}`.as('id'),
          sql<string>`${row.experience_id}`.as('experience_id'),
          sql<string>`${row.seller_id}`.as('seller_id'),
          sql<Date>`${row.starts_at}::timestamptz`.as('starts_at'),
          sql<Date>`${row.ends_at}::timestamptz`.as('ends_at'),
          sql<number | null>`${row.max}::int`.as('max'),
          sql<number>`${quantity}::int`.as('reserved'),
          sql<string>`${row.local_zone}::text`.as('local_zone'),
          sql<string>`${row.local_start}::text`.as('local_start'),
          sql<string>`${row.local_end}::text`.as('local_end'),
          sql<Date>`${at}::timestamptz`.as('created_at'),
          sql<Date>`${at}::timestamptz`.as('updated_at'),
        ])
        .where(sql<SqlBool>`${row.max}::int is null or ${quantity}::int <= ${row.max}::int`),
    )
    .onConflict((oc) => oc.constraint('events_experience_start').doNothing())
    .returningAll();
  const taken = db
    .updateTable('events')
    .set({ reserved: sql`reserved + ${quantity}`, updated_at: touchedAt('events', at) })
    .where('experience_id', '=', row.experience_id)
    .where('starts_at', '=', row.starts_at)
    // Made just now by this statement: its seats are already taken.
    .where(sql<SqlBool>`not exists (select from made)`)
    .where('manual', 'is not', false)
    .where((eb) =>
      eb.or([eb('max', 'is', null), eb(sql`reserved + ${quantity}`, '<=', eb.ref('max'))]),
    )
    .returningAll();
  return db
    .with('made', () => made)
    .with('taken', () => taken)
    .selectFrom('made')
    .selectAll()
    .select(sql<boolean>`true`.as('created'))
    .unionAll((eb) =>
      eb
        .selectFrom('taken')
        .selectAll()
        .select(sql<boolean>`false`.as('created')),
    );
});

export function eventSeatsRepository(db: Kysely<DB>) {
  return {
    /**
     * Takes `quantity` seats in one conditional statement: the row lock and the re-check of
     * the condition happen together, so concurrent bookings can never oversell. The event
     * after it, or undefined when there is no room (or it is closed by hand).
     */
    async reserve(id: string, quantity: number): Promise<Selectable<EventsTable> | undefined> {
      return (
        db
          .updateTable('events')
          .set({ reserved: sql`reserved + ${quantity}`, updated_at: touchedAt('events') })
          .where('id', '=', id)
          // A departure closed by hand takes no seats, whatever its capacity.
          .where('manual', 'is not', false)
          .where((eb) =>
            eb.or([eb('max', 'is', null), eb(sql`reserved + ${quantity}`, '<=', eb.ref('max'))]),
          )
          .returningAll()
          .executeTakeFirst()
      );
    },

    /**
     * Takes `quantity` seats at a departure in one statement, making its event (with those
     * seats already taken) when it has none: the event after it, and whether it was made.
     * Undefined when that did not happen, which is either no room (or closed by hand) or an
     * event another transaction made while this statement ran (its snapshot cannot see it):
     * the caller then finds the event and reserves with `findOrCreate` and `reserve`, which
     * tell the two apart.
     */
    async takeSeatsAt(
      row: NewEventRow,
      quantity: number,
    ): Promise<(Selectable<EventsTable> & { created: boolean }) | undefined> {
      const taking = prepared(takeSeats(db, { ...row, quantity, at: creationTime() }), 'writes');
      return (await db.executeQuery(taking)).rows[0];
    },

    async release(id: string, quantity: number): Promise<void> {
      await db
        .updateTable('events')
        .set({ reserved: sql`reserved - ${quantity}`, updated_at: touchedAt('events') })
        .where('id', '=', id)
        .execute();
    },

    async seatsLeft(id: string): Promise<number | null> {
      const row = await db
        .selectFrom('events')
        .select(['max', 'reserved', 'manual'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return seatsOpen(row);
    },
  };
}
