/** All SQL on events. */
import { sql, type Kysely, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import { creationStamps, creationTime } from '../../db/creation-clock.js';
import type { DB, EventsTable, GuideStatus } from '../../db/types.js';
import type { CompiledList } from '../../query/compile.js';
import type { ListSource } from '../../query/run.js';
import { seatsOpen, type EventRow } from './events.schemas.js';

/** The seats of an event at a departure, as availability and quotes read them. */
const toDeparture = (
  r: Pick<Selectable<EventsTable>, 'experience_id' | 'starts_at' | 'max' | 'reserved' | 'manual'>,
) => ({
  experienceId: r.experience_id,
  start: r.starts_at,
  max: r.max,
  reserved: r.reserved,
  manual: r.manual,
});

/** A new event of a departure, as a booking makes it. */
export interface NewEventRow {
  id: string;
  experience_id: string;
  seller_id: string;
  starts_at: Date;
  ends_at: Date;
  max: number | null;
}

export function eventsRepository(db: Kysely<DB>) {
  /** Events with the name and time zone of their experience, which their view shows. */
  const withExperience = () =>
    db
      .selectFrom('events as e')
      .innerJoin('experiences as x', 'x.id', 'e.experience_id')
      .selectAll('e')
      .select(['x.name as title', 'x.timezone as timezone']);

  return {
    withExperience,

    async findById(id: string): Promise<EventRow | undefined> {
      return withExperience().where('e.id', '=', id).executeTakeFirst();
    },

    async findMany(ids: readonly string[]): Promise<EventRow[]> {
      if (ids.length === 0) return [];
      return withExperience().where('e.id', 'in', ids).execute();
    },

    /** The experience's event starting at `start`, if there is one. */
    async findAt(experienceId: string, start: Date): Promise<EventRow | undefined> {
      return withExperience()
        .where('e.experience_id', '=', experienceId)
        .where('e.starts_at', '=', start)
        .executeTakeFirst();
    },

    /** Reads an event and locks it until the transaction ends (a change or a deletion). */
    async lock(id: string): Promise<Selectable<EventsTable> | undefined> {
      return db
        .selectFrom('events')
        .selectAll()
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
    },

    /**
     * A new capacity and/or hand-set state (open, closed, or null to follow the schedules);
     * the events_no_oversell constraint refuses a max below the reserved seats.
     */
    async change(id: string, changes: { max?: number | null; manual?: boolean | null }) {
      await db
        .updateTable('events')
        .set({ ...changes, updated_at: new Date() })
        .where('id', '=', id)
        .execute();
    },

    /** Whether any order ever booked the event (canceled ones too: they keep it in history). */
    async hasBookings(id: string): Promise<boolean> {
      const row = await db
        .selectFrom('order_items')
        .select('id')
        .where('event_id', '=', id)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    async delete(id: string): Promise<void> {
      await db.deleteFrom('events').where('id', '=', id).execute();
    },

    /**
     * Creates the event of an experience at `start`, or updates it (Xola's upsert). `max`
     * undefined keeps an existing event's capacity; the events_no_oversell constraint
     * refuses a max below the seats already reserved.
     */
    async upsert(row: NewEventRow, changeMax: boolean): Promise<{ id: string; created: boolean }> {
      const result = await db
        .insertInto('events')
        .values({ ...creationStamps(), ...row })
        .onConflict((oc) =>
          oc.constraint('events_experience_start').doUpdateSet((eb) => ({
            ends_at: eb.ref('excluded.ends_at'),
            max: changeMax ? eb.ref('excluded.max') : eb.ref('events.max'),
            updated_at: new Date(),
          })),
        )
        // xmax is 0 on a row this statement inserted (not on one it updated).
        .returning(['id', sql<boolean>`xmax = 0`.as('inserted')])
        .executeTakeFirstOrThrow();
      return { id: result.id, created: result.inserted };
    },

    /**
     * The id of the event at `start`, creating it if needed (`created` says so). Safe under
     * concurrency: a racing insert waits on the unique index, then finds the winner's row.
     */
    async findOrCreate(row: NewEventRow): Promise<{ id: string; created: boolean }> {
      const inserted = await db
        .insertInto('events')
        .values({ ...creationStamps(), ...row })
        .onConflict((oc) => oc.constraint('events_experience_start').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) return { id: inserted.id, created: true };
      const existing = await db
        .selectFrom('events')
        .select('id')
        .where('experience_id', '=', row.experience_id)
        .where('starts_at', '=', row.starts_at)
        .executeTakeFirstOrThrow();
      return { id: existing.id, created: false };
    },

    /**
     * Takes `quantity` seats in one conditional statement: the row lock and the re-check of
     * the condition happen together, so concurrent bookings can never oversell. The event
     * after it, or undefined when there is no room (or it is closed by hand).
     */
    async reserve(id: string, quantity: number): Promise<Selectable<EventsTable> | undefined> {
      return (
        db
          .updateTable('events')
          .set({ reserved: sql`reserved + ${quantity}`, updated_at: new Date() })
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
      const at = creationTime();
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
              sql<Date>`${at}::timestamptz`.as('created_at'),
              sql<Date>`${at}::timestamptz`.as('updated_at'),
            ])
            .where(sql<SqlBool>`${row.max}::int is null or ${quantity}::int <= ${row.max}::int`),
        )
        .onConflict((oc) => oc.constraint('events_experience_start').doNothing())
        .returningAll();
      const taken = db
        .updateTable('events')
        .set({ reserved: sql`reserved + ${quantity}`, updated_at: at })
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
        )
        .executeTakeFirst();
    },

    async release(id: string, quantity: number): Promise<void> {
      await db
        .updateTable('events')
        .set({ reserved: sql`reserved - ${quantity}`, updated_at: new Date() })
        .where('id', '=', id)
        .execute();
    },

    /**
     * Another event of the guide that overlaps this one (touching ends do not overlap), where
     * the guide has not declined.
     */
    async overlappingWithGuide(
      guideId: string,
      event: { id: string; starts_at: Date; ends_at: Date },
    ): Promise<EventRow | undefined> {
      return withExperience()
        .where(sql<SqlBool>`e.guide_ids @> array[${guideId}]::text[]`)
        .where(sql<SqlBool>`coalesce(e.guide_statuses ->> ${guideId}, 'confirmed') <> 'declined'`)
        .where('e.id', '<>', event.id)
        .where('e.starts_at', '<', event.ends_at)
        .where('e.ends_at', '>', event.starts_at)
        .orderBy('e.starts_at')
        .limit(1)
        .executeTakeFirst();
    },

    /** Puts a guide on an event, its acknowledgement `pending` (v2018-06-26). */
    async addGuide(id: string, guideId: string): Promise<void> {
      await db
        .updateTable('events')
        .set({
          guide_ids: sql`array_append(guide_ids, ${guideId})`,
          guide_statuses: sql`guide_statuses || jsonb_build_object(${guideId}::text, 'pending')`,
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .where(sql<SqlBool>`not guide_ids @> array[${guideId}]::text[]`)
        .execute();
    },

    /** A guide's answer to its assignment. */
    async setGuideStatus(id: string, guideId: string, status: GuideStatus): Promise<void> {
      await db
        .updateTable('events')
        .set({
          guide_statuses: sql`guide_statuses || jsonb_build_object(${guideId}::text, ${status}::text)`,
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .execute();
    },

    /** Takes a guide off every event that has not started by `now` (the guide was deleted). */
    async removeGuideFromFuture(guideId: string, now: Date): Promise<void> {
      await db
        .updateTable('events')
        .set({
          guide_ids: sql`array_remove(guide_ids, ${guideId})`,
          guide_statuses: sql`guide_statuses - ${guideId}::text`,
          updated_at: now,
        })
        .where(sql<SqlBool>`guide_ids @> array[${guideId}]::text[]`)
        .where('starts_at', '>', now)
        .execute();
    },

    /** The guides on each of these events that have not declined. */
    async guidesOf(ids: readonly string[]): Promise<Map<string, string[]>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('events')
        .select(['id', 'guide_ids', 'guide_statuses'])
        .where('id', 'in', ids)
        .execute();
      return new Map(
        rows.map((r) => [r.id, r.guide_ids.filter((g) => r.guide_statuses[g] !== 'declined')]),
      );
    },

    async removeGuide(id: string, guideId: string): Promise<void> {
      await db
        .updateTable('events')
        .set({
          guide_ids: sql`array_remove(guide_ids, ${guideId})`,
          guide_statuses: sql`guide_statuses - ${guideId}::text`,
          updated_at: new Date(),
        })
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

    /**
     * The events availability shows, in one query: those of these experiences starting at
     * any of these instants (their scheduled departures), and those opened by hand between
     * `from` and `to` (which the schedules may not list).
     */
    async forAvailability(
      experienceIds: readonly string[],
      instants: readonly Date[],
      from: Date,
      to: Date,
    ) {
      const rows = await db
        .selectFrom('events')
        .select(['experience_id', 'starts_at', 'max', 'reserved', 'manual'])
        .where('experience_id', 'in', experienceIds)
        .where((eb) =>
          eb.or([
            ...(instants.length > 0 ? [eb('starts_at', 'in', instants)] : []),
            eb.and([
              eb('manual', '=', true),
              eb('starts_at', '>=', from),
              eb('starts_at', '<', to),
            ]),
          ]),
        )
        .execute();
      return rows.map(toDeparture);
    },

    /** The events of several experiences that start at any of these instants (one query). */
    async startingAtMany(experienceIds: readonly string[], instants: readonly Date[]) {
      const rows = await db
        .selectFrom('events')
        .select(['experience_id', 'starts_at', 'max', 'reserved', 'manual'])
        .where('experience_id', 'in', experienceIds)
        .where('starts_at', 'in', instants)
        .execute();
      return rows.map(toDeparture);
    },

    listSource(): ListSource<EventRow> {
      return {
        // The page of events first, then their experiences: joining before the limit joins
        // every matching event (and the planner may then hash-join all experiences).
        rows: (q: CompiledList) =>
          db
            .selectFrom(
              db
                .selectFrom('events as e')
                .selectAll('e')
                .where(q.where)
                .orderBy(q.orderBy)
                .limit(q.limit)
                .offset(q.offset)
                .as('e'),
            )
            .innerJoin('experiences as x', 'x.id', 'e.experience_id')
            .selectAll('e')
            .select(['x.name as title', 'x.timezone as timezone'])
            .orderBy(q.orderBy)
            .execute(),
        count: async (where: RawBuilder<SqlBool>) => {
          const row = await db
            .selectFrom('events as e')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where(where)
            .executeTakeFirstOrThrow();
          return Number(row.n);
        },
      };
    },
  };
}
