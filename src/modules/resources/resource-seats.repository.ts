/** All SQL on what departures hold of resources (`resource_seats`). */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { write } from '../../db/write-batch.js';

/** A resource with what the departures overlapping a span hold of it (timestamps as text). */
export interface ResourceLoad {
  id: string;
  name: string;
  capacity: number;
  held: { event_id: string; starts_at: string; ends_at: string; seats: number }[];
  /** Asked by a taker: the resources each departure's experience lists now, by event id. */
  uses?: Record<string, { id: string; seatsPerGuest: number }[]>;
}

export function resourceSeatsRepository(db: Kysely<DB>) {
  return {
    /**
     * These resources, each with what the departures whose windows overlap `[from, to)` hold
     * of it: one query (resource_seats_window). Given `windows` (a taker's departures), only
     * the held windows that overlap one of them (ends included) are read, not all of a span
     * that may run from one item to another a year later (the windows are merged once, and
     * each held window is matched against them by a binary search: `range_agg`). With
     * `eventIds` (a taker, under the resources' locks), each row also carries the resources
     * those departures' experiences list now, by event id (the same on every row: one
     * uncorrelated subquery): a booking read its experience before its transaction, and the
     * experience may have dropped or re-weighted a resource since; read here, it costs no
     * statement of its own. Departures and windows go as array parameters, one each however
     * many: a relist names every booked departure ahead, and one parameter each went past
     * PostgreSQL's 65,535.
     */
    async loads(
      ids: readonly string[],
      from: Date,
      to: Date,
      eventIds?: readonly string[],
      windows?: readonly { start: Date; end: Date }[],
    ): Promise<ResourceLoad[]> {
      if (ids.length === 0) return [];
      const overlapping = windows
        ? sql`and tstzrange(s.starts_at, s.ends_at) && (select range_agg(tstzrange(w.f, w.t, '[]'))
            from unnest(${windows.map((w) => w.start.toISOString())}::timestamptz[],
                        ${windows.map((w) => w.end.toISOString())}::timestamptz[]) as w(f, t))`
        : sql``;
      return db
        .selectFrom('resources as r')
        .select(['r.id', 'r.name', 'r.capacity'])
        .select(
          sql<ResourceLoad['held']>`coalesce((select json_agg(json_build_object(
              'event_id', s.event_id, 'starts_at', s.starts_at, 'ends_at', s.ends_at, 'seats', s.seats))
            from resource_seats s
           where s.resource_id = r.id and s.starts_at < ${to} and s.ends_at > ${from}
             ${overlapping}), '[]'::json)`.as('held'),
        )
        .$if(eventIds !== undefined && eventIds.length > 0, (q) =>
          q.select(
            sql<ResourceLoad['uses']>`(select json_object_agg(e.id, x.resources)
              from events e join experiences x on x.id = e.experience_id
             where e.id = any(${[...(eventIds ?? [])]}::text[]))`.as('uses'),
          ),
        )
        .where('r.id', 'in', ids)
        .execute();
    },

    /** The windows over which a departure holds resources (one row per resource). */
    async windowsOf(
      eventId: string,
    ): Promise<{ resource_id: string; starts_at: Date; ends_at: Date }[]> {
      return db
        .selectFrom('resource_seats')
        .select(['resource_id', 'starts_at', 'ends_at'])
        .where('event_id', '=', eventId)
        .execute();
    },

    /**
     * Locks the departures of an experience that hold seats or resources, in start order (the
     * order a booking visits one experience's departures), before an experience changes the
     * resources they hold: whoever gives back or takes their seats holds these first, then
     * the resources (one query).
     */
    async lockDepartures(experienceId: string): Promise<void> {
      await db
        .selectFrom('events as e')
        .select('e.id')
        .where('e.experience_id', '=', experienceId)
        .where((eb) =>
          eb.or([
            eb('e.reserved', '>', 0),
            eb.exists(
              eb
                .selectFrom('resource_seats as s')
                .select('s.event_id')
                .whereRef('s.event_id', '=', 'e.id'),
            ),
          ]),
        )
        .orderBy('e.starts_at')
        .orderBy('e.id')
        .forNoKeyUpdate()
        .execute();
    },

    /** The departures of an experience to come (ending after `now`) that hold seats. */
    async departuresAhead(
      experienceId: string,
      now: Date,
    ): Promise<{ id: string; starts_at: Date; ends_at: Date; reserved: number }[]> {
      return db
        .selectFrom('events')
        .select(['id', 'starts_at', 'ends_at', 'reserved'])
        .where('experience_id', '=', experienceId)
        .where('reserved', '>', 0)
        .where('ends_at', '>', now)
        .orderBy('starts_at')
        .execute();
    },

    /**
     * What departures hold now, written whole (a departure's seats times seats per guest),
     * with a booking's other writes when it defers them (db/write-batch.ts). Each column is
     * one array parameter (`unnest`): a relist writes every booked departure ahead, and six
     * parameters a row went past PostgreSQL's 65,535 at 10,923 rows. A row per resource and
     * departure (the last given wins: an upsert cannot touch one row twice).
     */
    async hold(
      rows: readonly {
        resource_id: string;
        event_id: string;
        starts_at: Date;
        ends_at: Date;
        seats_per_guest: number;
        seats: number;
      }[],
    ): Promise<void> {
      const last = [...new Map(rows.map((r) => [`${r.resource_id} ${r.event_id}`, r])).values()];
      if (last.length === 0) return;
      const column = <T>(of: (row: (typeof last)[number]) => T) => last.map(of);
      await write(
        db,
        db
          .insertInto('resource_seats')
          .columns(['resource_id', 'event_id', 'starts_at', 'ends_at', 'seats_per_guest', 'seats'])
          .expression(
            sql`select * from unnest(${column((r) => r.resource_id)}::text[],
              ${column((r) => r.event_id)}::text[],
              ${column((r) => r.starts_at.toISOString())}::timestamptz[],
              ${column((r) => r.ends_at.toISOString())}::timestamptz[],
              ${column((r) => r.seats_per_guest)}::integer[],
              ${column((r) => r.seats)}::integer[])`,
          )
          .onConflict((oc) =>
            oc.columns(['resource_id', 'event_id']).doUpdateSet((eb) => ({
              starts_at: eb.ref('excluded.starts_at'),
              ends_at: eb.ref('excluded.ends_at'),
              seats_per_guest: eb.ref('excluded.seats_per_guest'),
              seats: eb.ref('excluded.seats'),
            })),
          ),
      );
    },

    /**
     * Departures that gave seats back: what they hold follows their reserved seats. It takes
     * no resource lock, so it may only ever lower a hold (`least`): a row whose seats per
     * guest or departure changed since it was checked must not rise here unchecked.
     */
    async settle(events: readonly { eventId: string; reserved: number }[]): Promise<void> {
      if (events.length === 0) return;
      const values = sql.join(events.map((e) => sql`(${e.eventId}, ${e.reserved}::integer)`));
      await sql`
        update resource_seats s set seats = least(s.seats, v.reserved * s.seats_per_guest)
          from (values ${values}) as v(event_id, reserved)
         where s.event_id = v.event_id`.execute(db);
    },

    /**
     * An experience no longer uses some resources: its departures stop holding them (only
     * departures of an experience that lists a resource share it). Lowers loads only, so no
     * lock is needed.
     */
    async releaseUnused(experienceId: string, keptIds: readonly string[]): Promise<void> {
      await db
        .deleteFrom('resource_seats')
        .where('event_id', 'in', (eb) =>
          eb.selectFrom('events').select('id').where('experience_id', '=', experienceId),
        )
        .$if(keptIds.length > 0, (q) => q.where('resource_id', 'not in', keptIds))
        .execute();
    },

    /** Forgets what departures held of a resource (it is being deleted). */
    async forget(resourceId: string): Promise<void> {
      await db.deleteFrom('resource_seats').where('resource_id', '=', resourceId).execute();
    },
  };
}
