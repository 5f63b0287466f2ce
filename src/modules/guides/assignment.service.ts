/**
 * Assigning guides to events: `POST /api/events/{id}/guides` and
 * `DELETE /api/events/{id}/guides/{guideId}`, for the seller's guide managers.
 */
import type { Db } from '../../db/database.js';
import { withRetry } from '../../db/retry.js';
import { invalid, notFound } from '../../http/errors.js';
import { accessFor } from '../access/access.js';
import { toEventView, type EventRow, type EventView } from '../events/events.mapper.js';
import { eventsRepository } from '../events/events.repository.js';
import { maySee } from '../events/events.service.js';
import type { Caller } from '../users/caller.js';
import { assignGuide, requireGuideOn } from './assignment.js';

/** The three body shapes existing clients send. */
export interface AssignmentBody {
  guide?: { id: string; forceConfirm?: boolean };
  id?: string | { id: string };
  forceConfirm?: boolean;
}

export function readAssignment(body: AssignmentBody): { guideId: string; forceConfirm: boolean } {
  if ((body.guide === undefined) === (body.id === undefined)) {
    throw invalid('body', 'guide.id', 'send {"guide": {"id": ...}} (or {"id": ...})');
  }
  const guideId = body.guide?.id ?? (typeof body.id === 'string' ? body.id : body.id!.id);
  return { guideId, forceConfirm: body.guide?.forceConfirm ?? body.forceConfirm ?? false };
}

export function assignmentService({ db }: { db: Db }) {
  /** The event, if the caller may manage its guides (404 when it may not even see it). */
  async function managedEvent(caller: Caller, id: string): Promise<EventRow> {
    const access = accessFor(db, caller);
    const event = await eventsRepository(db).findById(id);
    if (!event || !(await maySee(access, event))) throw notFound(`Event ${id}`);
    await access.require('guides', event.seller_id, `the guides of event ${id}`);
    return event;
  }

  return {
    async assign(
      caller: Caller,
      eventId: string,
      body: AssignmentBody,
      checkSchedule = true,
    ): Promise<EventView> {
      const { guideId, forceConfirm } = readAssignment(body);
      const event = await managedEvent(caller, eventId);
      return withRetry(() =>
        db.transaction().execute(async (trx) => {
          await assignGuide(trx, event, guideId, { forceConfirm, checkSchedule });
          return toEventView((await eventsRepository(trx).findById(eventId))!);
        }),
      );
    },

    async unassign(caller: Caller, eventId: string, guideId: string): Promise<EventView> {
      const event = await managedEvent(caller, eventId);
      requireGuideOn(event, guideId);
      const events = eventsRepository(db);
      await events.removeGuide(eventId, guideId);
      return toEventView((await events.findById(eventId))!);
    },
  };
}

export type AssignmentService = ReturnType<typeof assignmentService>;
