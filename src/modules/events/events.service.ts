/**
 * Events: one departure of an experience, with its capacity. Created or updated by the
 * seller's staff (Xola's upsert on experience and start), or on demand by bookings.
 */
import type { Db } from '../../db/database.js';
import { isCheckViolation } from '../../db/errors.js';
import { newId } from '../../db/ids.js';
import { ApiError, invalid, notFound } from '../../http/errors.js';
import { runList } from '../../query/run.js';
import { accessFor, type Access } from '../access/access.js';
import { listScopes } from '../access/list-scopes.js';
import { experiencesRepository } from '../experiences/experiences.repository.js';
import { withRetry } from '../../db/retry.js';
import { setGuides } from '../guides/assignment.js';
import { guidesRepository } from '../guides/guides.repository.js';
import type { Recorder } from '../idempotency/idempotency.service.js';
import { parseStart } from '../schedules/local-time.js';
import type { Caller } from '../users/caller.js';
import { toEventView, type EventRow, type EventView } from './events.mapper.js';
import { eventSpec } from './events.query.js';
import { eventsRepository } from './events.repository.js';

export interface EventInput {
  experience: { id: string };
  start: string;
  max?: number | null;
  guides?: string[];
}

/** The seller's staff see its events; a guide sees the events it is assigned to. */
export async function maySee(
  access: Access,
  event: Pick<EventRow, 'seller_id' | 'guide_ids'>,
): Promise<boolean> {
  if (await access.can('events', event.seller_id)) return true;
  const mine = await access.guideIds();
  return event.guide_ids.some((id) => mine.includes(id));
}

export function eventsService({ db }: { db: Db }) {
  const repo = eventsRepository(db);

  return {
    list: async (caller: Caller, query: Record<string, unknown>) =>
      runList(
        eventSpec,
        { path: '/api/events', query, scope: await listScopes.events(accessFor(db, caller)) },
        repo.listSource(),
        (rows) => rows.map(toEventView),
      ),

    async get(caller: Caller, id: string): Promise<EventView> {
      const row = await repo.findById(id);
      if (!row || !(await maySee(accessFor(db, caller), row))) throw notFound(`Event ${id}`);
      return toEventView(row);
    },

    /** Creates the event, or updates the one at the same start (201 both ways). */
    async upsert(
      caller: Caller,
      input: EventInput,
      record: Recorder,
      checkSchedule = true,
    ): Promise<EventView> {
      const access = accessFor(db, caller);
      const experience = await experiencesRepository(db).findById(input.experience.id);
      const mayManage =
        experience !== undefined && (await access.can('events', experience.seller_id));
      if (!experience || (!experience.visible && !mayManage))
        throw notFound(`Experience ${input.experience.id}`);
      await access.require(
        'events',
        experience.seller_id,
        `the events of experience ${experience.id}`,
      );
      const start = parseStart(input.start, experience.timezone);
      if (!start) {
        throw invalid(
          'body',
          'start',
          `must be an ISO 8601 date-time (with an offset, or local to ${experience.timezone}) that exists`,
        );
      }
      if (input.guides !== undefined) {
        await access.require(
          'guides',
          experience.seller_id,
          `the guides of experience ${experience.id}`,
        );
      }
      return withRetry(() =>
        db.transaction().execute(async (trx) => {
          const events = eventsRepository(trx);
          // Guides before the event, as assignment and deletion lock them: one lock order
          // everywhere, so these paths cannot deadlock each other.
          for (const guideId of [...new Set(input.guides ?? [])].sort())
            await guidesRepository(trx).lock(guideId);
          let id: string;
          try {
            id = await events.upsert(
              {
                id: newId(),
                experience_id: experience.id,
                seller_id: experience.seller_id,
                starts_at: start,
                ends_at: new Date(start.getTime() + experience.duration * 60_000),
                max: input.max === undefined ? experience.outing_max : input.max,
              },
              input.max !== undefined,
            );
          } catch (error) {
            if (isCheckViolation(error, 'events_no_oversell')) {
              throw new ApiError(
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
          if (input.guides !== undefined) {
            // Guides obey the same rule as POST /api/events/{id}/guides (no forceConfirm here).
            await setGuides(trx, (await events.findById(id))!, input.guides, {
              forceConfirm: false,
              checkSchedule,
            });
          }
          const view = toEventView((await events.findById(id))!);
          await record(trx, { status: 201, body: view });
          return view;
        }),
      );
    },
  };
}

export type EventsService = ReturnType<typeof eventsService>;
