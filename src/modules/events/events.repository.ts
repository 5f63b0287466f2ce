/** All SQL on events (the seats and the guides on them in event-seats/event-guides.repository.ts). */
import { sql, type Kysely, type Selectable } from 'kysely';
import { creationStamps, touchedAt } from '../../db/creation-clock.js';
import { countOf, pageOf, shapedRows, textListSource, type TextRow } from '../../db/list-source.js';
import type { DB, EventsTable } from '../../db/types.js';
import type { CompiledList } from '../../query/compile.js';
import type { ListSource } from '../../query/run.js';
import { eventJson } from './event-json.js';
import type { EventRow } from './events.schemas.js';
import type { LocalTimes } from './new-event.js';

/** The seats of an event at a departure, as availability and quotes read them. */
const toDeparture = (
  r: Pick<
    Selectable<EventsTable>,
    'experience_id' | 'starts_at' | 'ends_at' | 'max' | 'reserved' | 'manual'
  >,
) => ({
  experienceId: r.experience_id,
  start: r.starts_at,
  /** Its own window's end, which a change of its experience's duration does not move. */
  end: r.ends_at,
  max: r.max,
  reserved: r.reserved,
  manual: r.manual,
});

/** A new event of a departure, as a booking makes it (new-event.ts). */
export interface NewEventRow extends LocalTimes {
  id: string;
  experience_id: string;
  seller_id: string;
  starts_at: Date;
  ends_at: Date;
  max: number | null;
}

/** Events with the name and time zone of their experience, which their view shows. */
export const eventsWithExperience = (db: Kysely<DB>) =>
  db
    .selectFrom('events as e')
    .innerJoin('experiences as x', 'x.id', 'e.experience_id')
    .selectAll('e')
    .select(['x.name as title', 'x.timezone as timezone']);

/**
 * `= any($1)`: the instants as one array parameter. Availability over weeks of many
 * experiences asks for tens of thousands of departures; one parameter each went past
 * PostgreSQL's 65,535 and the request failed after seconds of work. Each instant once.
 */
const anyInstant = (instants: readonly Date[]) =>
  sql<Date>`any(${[...new Set(instants.map((at) => at.toISOString()))]}::timestamptz[])`;

/** Events themselves: read, locked, changed, made, deleted, listed. */
export function eventsRepository(db: Kysely<DB>) {
  const withExperience = () => eventsWithExperience(db);
  // A page of events first, then their experiences: joining before the limit joins every
  // matching event (and the planner may then hash-join all experiences).
  const pageWithExperiences = (q: CompiledList) =>
    db
      .selectFrom(pageOf(db.selectFrom('events as e').selectAll('e'), q).as('e'))
      .innerJoin('experiences as x', 'x.id', 'e.experience_id')
      .orderBy(q.orderBy);
  const count = countOf(() => db.selectFrom('events as e'));
  return {
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

    /** Whether a departure of the experience that has not started holds seats. */
    async seatsAhead(experienceId: string): Promise<boolean> {
      const row = await db
        .selectFrom('events')
        .select('id')
        .where('experience_id', '=', experienceId)
        .where('starts_at', '>', sql<Date>`now()`)
        .where('reserved', '>', 0)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
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
        .set({ ...changes, updated_at: touchedAt('events') })
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
            local_zone: eb.ref('excluded.local_zone'),
            local_start: eb.ref('excluded.local_start'),
            local_end: eb.ref('excluded.local_end'),
            max: changeMax ? eb.ref('excluded.max') : eb.ref('events.max'),
            updated_at: touchedAt('events'),
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
        .select(['experience_id', 'starts_at', 'ends_at', 'max', 'reserved', 'manual'])
        .where('experience_id', 'in', experienceIds)
        .where((eb) =>
          eb.or([
            ...(instants.length > 0 ? [eb('starts_at', '=', anyInstant(instants))] : []),
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
        .select(['experience_id', 'starts_at', 'ends_at', 'max', 'reserved', 'manual'])
        .where('experience_id', 'in', experienceIds)
        .where('starts_at', '=', anyInstant(instants))
        .execute();
      return rows.map(toDeparture);
    },

    listSource(): ListSource<EventRow> {
      return {
        rows: (q: CompiledList) =>
          shapedRows({ shape: 'events', db }, q, (q) =>
            pageWithExperiences(q)
              .selectAll('e')
              .select(['x.name as title', 'x.timezone as timezone']),
          ),
        count,
      };
    },

    /** The same pages, each event as its view's JSON text (event-json.ts). */
    jsonListSource(): ListSource<TextRow> {
      return textListSource(
        db,
        (q) =>
          pageWithExperiences(q).select(['e.id', sql<string>`${sql.raw(eventJson)}`.as('json')]),
        count,
        'events-json',
      );
    },
  };
}
