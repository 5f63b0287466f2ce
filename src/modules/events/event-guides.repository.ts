/**
 * The SQL of the guides on events: who is on which event, the overlap rule's query, an event
 * locked for a change of its guides, adding, acknowledging and removing a guide, a deleted
 * guide leaving the events to come, and an event with the names and phones of the guides
 * working it (a departure's manifest).
 */
import { sql, type Kysely, type Selectable, type SqlBool } from 'kysely';
import { touchedAt } from '../../db/creation-clock.js';
import type { DB, EventsTable, GuideStatus } from '../../db/types.js';
import { eventsWithExperience } from './events.repository.js';
import type { EventRow } from './events.schemas.js';

/** A guide on an event, as the manifest names it. */
export interface GuideOnEvent {
  id: string;
  name: string;
  phone: string | null;
}

export function eventGuidesRepository(db: Kysely<DB>) {
  const withExperience = () => eventsWithExperience(db);
  return {
    /**
     * Another event of the guide that overlaps this one (touching ends do not overlap), where
     * the guide has not declined.
     */
    async overlappingWithGuide(
      guideId: string,
      event: { id: string; starts_at: Date; ends_at: Date },
      /** A window whose overlaps were accepted already (the event's before it grew). */
      accepted?: { starts_at: Date; ends_at: Date },
    ): Promise<EventRow | undefined> {
      let query = withExperience()
        .where(sql<SqlBool>`e.guide_ids @> array[${guideId}]::text[]`)
        .where(sql<SqlBool>`coalesce(e.guide_statuses ->> ${guideId}, 'confirmed') <> 'declined'`)
        .where('e.id', '<>', event.id)
        .where('e.starts_at', '<', event.ends_at)
        .where('e.ends_at', '>', event.starts_at);
      if (accepted) {
        query = query.where((eb) =>
          eb.or([
            eb('e.starts_at', '>=', accepted.ends_at),
            eb('e.ends_at', '<=', accepted.starts_at),
          ]),
        );
      }
      return query.orderBy('e.starts_at').limit(1).executeTakeFirst();
    },

    /** Puts a guide on an event, its acknowledgement `pending` (v2018-06-26). */
    async addGuide(id: string, guideId: string): Promise<void> {
      await db
        .updateTable('events')
        .set({
          guide_ids: sql`array_append(guide_ids, ${guideId})`,
          guide_statuses: sql`guide_statuses || jsonb_build_object(${guideId}::text, 'pending')`,
          updated_at: touchedAt('events'),
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
          updated_at: touchedAt('events'),
        })
        .where('id', '=', id)
        .execute();
    },

    /**
     * An event as its view reads it, locked until the transaction ends: a change of its
     * guides reads what it changes (and announces as `before`) under the lock.
     */
    async lockedEvent(id: string): Promise<EventRow | undefined> {
      return withExperience().where('e.id', '=', id).forUpdate('e').executeTakeFirst();
    },

    /**
     * Up to `limit` of the events a guide is on that have not started by `now`, locked in
     * the order bookings lock events (experience, then start), so that a deleted guide
     * leaving them and a booking never wait on each other in a cycle.
     */
    async lockFutureWithGuide(guideId: string, now: Date, limit: number): Promise<EventRow[]> {
      return withExperience()
        .where(sql<SqlBool>`e.guide_ids @> array[${guideId}]::text[]`)
        .where('e.starts_at', '>', now)
        .orderBy('e.experience_id')
        .orderBy('e.starts_at')
        .limit(limit)
        .forUpdate('e')
        .execute();
    },

    /** Takes a guide off these events (a deleted guide leaving them): their rows after. */
    async removeGuideFromEvents(
      ids: readonly string[],
      guideId: string,
    ): Promise<Selectable<EventsTable>[]> {
      if (ids.length === 0) return [];
      return db
        .updateTable('events')
        .set({
          guide_ids: sql`array_remove(guide_ids, ${guideId})`,
          guide_statuses: sql`guide_statuses - ${guideId}::text`,
          updated_at: touchedAt('events'),
        })
        .where('id', 'in', ids)
        .returningAll()
        .execute();
    },

    /**
     * An event with the profile of each guide working it, in the order assigned (one query:
     * the guides' names and phones are read with it for the dock's manifest). A guide that
     * declined, or was deleted since, does not work the departure: the dock gets neither its
     * name nor its phone (docs/security.md, "The dock"); the event's own `guides` still list
     * who declined, for the managers.
     */
    async withGuideProfiles(
      id: string,
    ): Promise<(EventRow & { profiles: GuideOnEvent[] }) | undefined> {
      return withExperience()
        .select(
          sql<
            GuideOnEvent[]
          >`coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name, 'phone', g.phone)
              order by array_position(e.guide_ids, g.id)) from guides g where g.id = any(e.guide_ids)
              and g.deleted_at is null
              and coalesce(e.guide_statuses ->> g.id, 'confirmed') <> 'declined'), '[]'::json)`.as(
            'profiles',
          ),
        )
        .where('e.id', '=', id)
        .executeTakeFirst();
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
          updated_at: touchedAt('events'),
        })
        .where('id', '=', id)
        .execute();
    },
  };
}
