/**
 * Events: one departure of an experience, with its capacity. Created or updated by the
 * seller's staff (Xola's upsert on experience and start), or on demand by bookings; a new
 * one gets its guides when the experience asks for auto-assignment.
 */
import type { Db } from '../../db/database.js';
import { isCheckViolation } from '../../db/errors.js';
import { inTransaction, type Executor } from '../../db/unit-of-work.js';
import { jsonPage } from '../../http/json-text.js';
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { DomainError, invalid, notFound } from '../../domain/errors.js';
import { emitChange, noEvents, type EventSink } from '../../outbox/index.js';
import { runList } from '../../query/run.js';
import type { Scope } from '../../query/types.js';
import { experiencesFacade as experiences } from '../experiences/index.js';
import { guidesFacade as guides } from '../guides/index.js';
import type { Recorder } from '../idempotency/index.js';
import { parseStart } from '../schedules/index.js';
import { setGuides } from './assignment.js';
import { staffNewEvent } from './seats.js';
import { eventList } from './events.list.js';
import { type EventRow, type EventView, toEventView } from './events.schemas.js';
import { eventsRepository } from './events.repository.js';
import { experienceMustExist } from './events.rules.js';
import { fillLocalTimes, newEventAt } from './new-event.js';

/** A guide as `POST /api/events` may name it: an id, `{id}`, or `{guide: {id}}`. */
export type GuideEntry = string | { id: string } | { guide: { id: string } };

export const guideIdOf = (entry: GuideEntry): string =>
  typeof entry === 'string' ? entry : 'guide' in entry ? entry.guide.id : entry.id;

export interface EventInput {
  experience: { id: string };
  start: string;
  max?: number | null;
  guides?: GuideEntry[];
}

export interface EventsServiceDeps {
  db: Db;
  domainEvents?: EventSink;
}

/**
 * Who sees an event: the seller's staff, and a ROLE_GUIDE delegate the events it is
 * assigned to (its guide profiles are read only for callers that hold that role).
 */
export function eventVisibility() {
  const guideIdsOf = async (db: Executor, caller: Caller): Promise<string[]> =>
    accessOf(caller).holdsRole('ROLE_GUIDE') ? guides.idsGuidedBy(db, caller) : [];

  /** Those of `events` the caller may see (one query at most, for a guide's profiles). */
  async function visible<T extends Pick<EventRow, 'seller_id' | 'guide_ids'>>(
    db: Executor,
    caller: Caller,
    events: readonly T[],
  ): Promise<T[]> {
    const access = accessOf(caller);
    const staffed = (e: T) => access.can('events', e.seller_id);
    if (events.every(staffed)) return [...events];
    const mine = await guideIdsOf(db, caller);
    return events.filter((e) => staffed(e) || e.guide_ids.some((id) => mine.includes(id)));
  }

  return {
    visible,

    async maySee(
      db: Executor,
      caller: Caller,
      event: Pick<EventRow, 'seller_id' | 'guide_ids'>,
    ): Promise<boolean> {
      return (await visible(db, caller, [event])).length > 0;
    },

    async scope(db: Executor, caller: Caller): Promise<Scope> {
      const sellers = accessOf(caller).sellersFor('events');
      if (sellers === 'all') return 'all';
      const guideIds = await guideIdsOf(db, caller);
      return {
        anyOf: [
          { field: 'seller', in: sellers },
          { field: 'guides', in: guideIds },
        ].filter((a) => a.in.length > 0),
      };
    },
  };
}

export function eventsService({ db, domainEvents = noEvents }: EventsServiceDeps) {
  const repo = eventsRepository(db);
  const visibility = eventVisibility();

  return {
    list: async (caller: Caller, query: Record<string, unknown>) =>
      runList(
        eventList,
        { path: '/api/events', query, scope: await visibility.scope(db, caller) },
        repo.listSource(),
        (rows) => rows.map(toEventView),
      ),

    /**
     * The same page as `list`, as the bytes of the latest version's JSON that PostgreSQL
     * built (event-json.ts); undefined when an event on it has no stored local times of its
     * experience's zone: those are written now (new-event.ts), and this page is `list`'s.
     */
    async listJson(caller: Caller, query: Record<string, unknown>): Promise<Buffer | undefined> {
      const page = await runList(
        eventList,
        { path: '/api/events', query, scope: await visibility.scope(db, caller) },
        repo.jsonListSource(),
        (rows) => rows,
      );
      const stale = page.data.filter((row) => row.json === '').map((row) => row.id);
      if (stale.length > 0) {
        // Not the reader's failure: readers filling one page at once may wait on each
        // other's row locks, or one be chosen as a deadlock's victim; the next read fills.
        await fillLocalTimes(db, stale).catch(() => undefined);
        return undefined;
      }
      return jsonPage({ ...page, data: page.data.map((row) => row.json) });
    },

    /** The events of these ids the caller may see, as views (`expand=event`). */
    async views(caller: Caller | null, ids: readonly string[]): Promise<Map<string, EventView>> {
      if (!caller) return new Map();
      const rows = await visibility.visible(db, caller, await repo.findMany(ids));
      return new Map(rows.map((row) => [row.id, toEventView(row)]));
    },

    async get(caller: Caller, id: string): Promise<EventView> {
      const row = await repo.findById(id);
      if (!row || !(await visibility.maySee(db, caller, row))) throw notFound(`Event ${id}`);
      return toEventView(row);
    },

    /**
     * Changes an event's capacity (`max`: not below the seats reserved; null = unlimited)
     * and hand-set state (`manual`: open, closed, or null to follow the schedules). The
     * seller's event staff only.
     */
    async change(
      caller: Caller,
      id: string,
      input: { max?: number | null; manual?: boolean | null },
    ): Promise<EventView> {
      return inTransaction(db, async (tx) => {
        const events = eventsRepository(tx);
        const locked = await events.lock(id);
        if (!locked) throw notFound(`Event ${id}`);
        const before = (await events.findById(id))!;
        if (!(await visibility.maySee(tx, caller, before))) throw notFound(`Event ${id}`);
        accessOf(caller).require('events', before.seller_id, `event ${id}`);
        if (input.max !== undefined && input.max !== null && input.max < locked.reserved) {
          throw new DomainError(
            'capacity_below_reserved',
            `max is below the ${locked.reserved} seats already reserved on this event.`,
            {
              errors: [{ in: 'body', name: 'max', detail: 'is below the seats already reserved' }],
            },
          );
        }
        await events.change(id, input);
        const view = toEventView((await events.findById(id))!);
        await emitChange(domainEvents, tx, {
          name: 'event.update',
          sellerId: before.seller_id,
          actorId: caller.id,
          after: view,
          before: toEventView(before),
        });
        return view;
      });
    },

    /** Deletes an event no order ever booked (409 otherwise: orders keep their history). */
    async remove(caller: Caller, id: string): Promise<void> {
      await inTransaction(db, async (tx) => {
        const events = eventsRepository(tx);
        const locked = await events.lock(id);
        if (!locked) throw notFound(`Event ${id}`);
        const row = (await events.findById(id))!;
        if (!(await visibility.maySee(tx, caller, row))) throw notFound(`Event ${id}`);
        accessOf(caller).require('events', row.seller_id, `event ${id}`);
        if (locked.reserved > 0 || (await events.hasBookings(id))) {
          throw new DomainError(
            'event_has_bookings',
            'Orders booked this event; close it with manual: false instead.',
          );
        }
        await events.delete(id);
      });
    },

    /** Creates the event, or updates the one at the same start (201 both ways). */
    async upsert(
      caller: Caller,
      input: EventInput,
      record: Recorder,
      checkSchedule = true,
    ): Promise<EventView> {
      const access = accessOf(caller);
      const experience = await experiences.findVisible(db, caller, input.experience.id);
      access.require('events', experience.sellerId, `the events of experience ${experience.id}`);
      const start = parseStart(input.start, experience.timezone);
      if (!start) {
        throw invalid(
          'body',
          'start',
          `must be an ISO 8601 date-time (with an offset, or local to ${experience.timezone}) that exists`,
        );
      }
      const guideIds = input.guides && [...new Set(input.guides.map(guideIdOf))];
      if (guideIds !== undefined) {
        access.require('guides', experience.sellerId, `the guides of experience ${experience.id}`);
      }
      return inTransaction(db, async (tx) => {
        const events = eventsRepository(tx);
        // Guides before the event, as assignment and deletion lock them: one lock order
        // everywhere, so these paths cannot deadlock each other.
        for (const guideId of [...(guideIds ?? [])].sort()) await guides.lock(tx, guideId);
        // What the event was, if there was one at this start (for the audit).
        const existing = await events.findAt(experience.id, start);
        let written: { id: string; created: boolean };
        try {
          written = await experienceMustExist(
            experience.id,
            events.upsert(
              newEventAt(
                experience.sellerId,
                experience,
                start,
                input.max === undefined ? experience.outingMax : input.max,
              ),
              input.max !== undefined,
            ),
          );
        } catch (error) {
          if (isCheckViolation(error, 'events_no_oversell')) {
            throw new DomainError(
              'capacity_below_reserved',
              'max is below the seats already reserved on this event.',
              {
                errors: [
                  { in: 'body', name: 'max', detail: 'is below the seats already reserved' },
                ],
              },
            );
          }
          throw error;
        }
        const { id, created } = written;
        if (guideIds !== undefined) {
          // Guides obey the same rule as POST /api/events/{id}/guides (no forceConfirm here).
          await setGuides(tx, guides, (await events.findById(id))!, guideIds, {
            forceConfirm: false,
            checkSchedule,
          });
        } else if (created) {
          await staffNewEvent(tx, id, experience.guide);
        }
        const view = toEventView((await events.findById(id))!);
        await emitChange(domainEvents, tx, {
          name: 'event.update',
          sellerId: experience.sellerId,
          actorId: caller.id,
          after: view,
          before: existing && toEventView(existing),
        });
        await record(tx, { status: 201, body: view });
        return view;
      });
    },
  };
}

export type EventsService = ReturnType<typeof eventsService>;
