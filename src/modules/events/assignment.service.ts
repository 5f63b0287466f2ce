/**
 * Assigning guides to events: `POST /api/events/{id}/guides` and
 * `DELETE /api/events/{id}/guides/{guideId}`, for the seller's guide managers; and the
 * guide's answer, `PUT /api/events/{id}/guides/{guideId}` (v2018-06-26).
 */
import type { Db } from '../../db/database.js';
import { inTransaction, type Tx } from '../../db/unit-of-work.js';
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { forbidden, invalid, notFound } from '../../domain/errors.js';
import type { GuideStatus } from '../../db/types.js';
import { noEvents, type EventSink } from '../../outbox/index.js';
import { guidesFacade as guides } from '../guides/index.js';
import { acknowledge, assignGuide, unassignGuide, type GuidesChange } from './assignment.js';
import { announceEventUpdate } from './event-changes.js';
import { type EventRow, type EventView, toEventView } from './events.schemas.js';
import { eventsRepository } from './events.repository.js';
import { eventVisibility } from './event-visibility.js';
import { LATEST_GUIDE_WRITES, type GuideWrites } from './events.versions.js';

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

/** Whether the caller is a ROLE_GUIDE delegate of the seller now (as guidesFacade.idsGuidedBy asks). */
const isGuideAt = (caller: Caller, sellerId: string): boolean =>
  caller.delegations.get(sellerId)?.includes('ROLE_GUIDE') ?? false;

export function assignmentService({
  db,
  domainEvents = noEvents,
}: {
  db: Db;
  domainEvents?: EventSink;
}) {
  const visibility = eventVisibility();

  /**
   * The event after a change of its guides: announced as `event.update` with what changed
   * when it changed (`before` as read under the locks), else as it is, announcing nothing (a
   * retry, or the second of two identical requests).
   */
  async function outcome(tx: Tx, caller: Caller, change: GuidesChange): Promise<EventView> {
    const { before } = change;
    if (!change.changed) return toEventView(before);
    return announceEventUpdate(domainEvents, tx, {
      id: before.id,
      sellerId: before.seller_id,
      actorId: caller.id,
      before,
    });
  }

  /** The event, if the caller may manage its guides (404 when it may not even see it). */
  async function managedEvent(caller: Caller, id: string): Promise<EventRow> {
    const event = await eventsRepository(db).findById(id);
    if (!event || !(await visibility.maySee(db, caller, event))) throw notFound(`Event ${id}`);
    accessOf(caller).require('guides', event.seller_id, `the guides of event ${id}`);
    return event;
  }

  return {
    async assign(
      caller: Caller,
      eventId: string,
      body: AssignmentBody,
      writes: GuideWrites = LATEST_GUIDE_WRITES,
    ): Promise<EventView> {
      const { guideId: named, forceConfirm } = readAssignment(body);
      const event = await managedEvent(caller, eventId);
      return inTransaction(db, async (tx) => {
        const guideId = writes.delegatesAsGuides
          ? await guides.delegateAsGuide(tx, domainEvents, caller.id, event.seller_id, named)
          : named;
        // Older versions assigned delegates, which had no schedules: only a body naming a
        // delegate's user id (read as its profile) skips the rule. A guide id is a guide
        // profile, whose schedules that version never overrode (DESIGN.md: never).
        const checkSchedule = writes.checkSchedule || guideId === named;
        const change = await assignGuide(tx, guides, event, guideId, {
          forceConfirm,
          checkSchedule,
        });
        return outcome(tx, caller, change);
      });
    },

    /**
     * A guide's answer (v2018-06-26): by the guide itself (the user its profile is linked
     * to, while it is a ROLE_GUIDE delegate of the event's seller: the rule by which it sees
     * the event) or the seller's guide managers; anyone else is refused, or told the event
     * does not exist when it may not see it (a delegate removed or without ROLE_GUIDE any
     * more is a stranger again, whatever its profile's link).
     */
    async acknowledge(
      caller: Caller,
      eventId: string,
      guideId: string,
      status: GuideStatus,
    ): Promise<EventView> {
      const event = await eventsRepository(db).findById(eventId);
      if (!event) throw notFound(`Event ${eventId}`);
      const manager = accessOf(caller).can('guides', event.seller_id);
      return inTransaction(db, async (tx) => {
        if (!manager) {
          const guide = await guides.lock(tx, guideId);
          const itself =
            guide?.userId === caller.id &&
            guide.sellerId === event.seller_id &&
            isGuideAt(caller, event.seller_id);
          if (!itself) {
            if (!(await visibility.maySee(tx, caller, event))) throw notFound(`Event ${eventId}`);
            throw forbidden(
              'Only the guide itself and the seller’s guide managers answer an assignment.',
            );
          }
        }
        return outcome(tx, caller, await acknowledge(tx, guides, event, guideId, status));
      });
    },

    /** 404 when the guide is not on the event as read under the locks (unassignGuide). */
    async unassign(caller: Caller, eventId: string, guideId: string): Promise<EventView> {
      const event = await managedEvent(caller, eventId);
      return inTransaction(db, async (tx) => {
        const before = await unassignGuide(tx, guides, event, guideId);
        return outcome(tx, caller, { before, changed: true });
      });
    },
  };
}

export type AssignmentService = ReturnType<typeof assignmentService>;
