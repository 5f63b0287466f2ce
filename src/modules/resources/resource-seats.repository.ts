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
     * of it: one query (resource_seats_window). With `eventIds` (a taker, under the
     * resources' locks), each row also carries the resources those departures' experiences
     * list now, by event id (the same on every row: one uncorrelated subquery): a booking
     * read its experience before its transaction, and the experience may have dropped or
     * re-weighted a resource since; read here, it costs no statement of its own.
     */
    async loads(
      ids: readonly string[],
      from: Date,
      to: Date,
      eventIds?: readonly string[],
    ): Promise<ResourceLoad[]> {
      if (ids.length === 0) return [];
      return db
        .selectFrom('resources as r')
        .select(['r.id', 'r.name', 'r.capacity'])
        .select(
          sql<ResourceLoad['held']>`coalesce((select json_agg(json_build_object(
              'event_id', s.event_id, 'starts_at', s.starts_at, 'ends_at', s.ends_at, 'seats', s.seats))
            from resource_seats s
           where s.resource_id = r.id and s.starts_at < ${to} and s.ends_at > ${from}), '[]'::json)`.as(
            'held',
          ),
        )
        .$if(eventIds !== undefined && eventIds.length > 0, (q) =>
          q.select(
            sql<ResourceLoad['uses']>`(select json_object_agg(e.id, x.resources)
              from events e join experiences x on x.id = e.experience_id
             where e.id in (${sql.join(eventIds ?? [])}))`.as('uses'),
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
     * with a booking's other writes when it defers them (db/write-batch.ts).
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
      if (rows.length === 0) return;
      await write(
        db,
        db
          .insertInto('resource_seats')
          .values([...rows])
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
