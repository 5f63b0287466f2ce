/**
 * Putting a guide on an event, inside the caller's transaction: the guide's row is locked
 * first, so two assignments of one guide take turns and cannot both pass the overlap check.
 * A guide must be available by its schedules for the event's whole local interval (never
 * overridden), and must not be on an overlapping event (unless forceConfirm).
 */
import type { Tx } from '../../db/unit-of-work.js';
import { DomainError, notFound } from '../../domain/errors.js';
import type { GuideStatus } from '../../db/types.js';
import { unavailability, type GuideProfile, type GuidesFacade } from '../guides/index.js';
import { toEventView, type EventRow } from './events.schemas.js';
import { eventGuidesRepository } from './event-guides.repository.js';

export interface AssignmentOptions {
  /** Take the guide even when it is on an overlapping event. */
  forceConfirm: boolean;
  /** Versions before 2018-02-26 assigned without looking at schedules. */
  checkSchedule: boolean;
}

/** The guide of `event`'s seller, locked; 404 (naming the body's guide) otherwise. */
async function lockedGuide(trx: Tx, guides: GuidesFacade, event: EventRow, guideId: string) {
  const guide = await guides.lock(trx, guideId);
  if (!guide || guide.sellerId !== event.seller_id) {
    throw new DomainError('not_found', `Guide ${guideId} was not found.`, {
      errors: [{ in: 'body', name: 'guide.id', detail: "no such guide at this event's seller" }],
    });
  }
  return guide;
}

/**
 * What a change of an event's guides found: the event as it was, read under the guide's
 * lock and its own, and whether the change changed it (what to announce, and whether to).
 */
export interface GuidesChange {
  before: EventRow;
  changed: boolean;
}

/**
 * The event read again under the guide's lock (taken first: the one lock order of guides
 * and events) and then its own: another change of its guides may just have committed.
 */
async function lockedEvent(trx: Tx, event: EventRow): Promise<EventRow> {
  const current = await eventGuidesRepository(trx).lockedEvent(event.id);
  if (!current) throw notFound(`Event ${event.id}`);
  return current;
}

/** Checks and records one guide on `event` (a no-op when it is already there). */
export async function assignGuide(
  trx: Tx,
  guides: GuidesFacade,
  event: EventRow,
  guideId: string,
  options: AssignmentOptions,
): Promise<GuidesChange> {
  const guide = await lockedGuide(trx, guides, event, guideId);
  const current = await lockedEvent(trx, event);
  if (current.guide_ids.includes(guideId)) return { before: current, changed: false };
  await checkAvailable(trx, guides, guide, current, options);
  await eventGuidesRepository(trx).addGuide(event.id, guideId);
  return { before: current, changed: true };
}

/**
 * Takes a guide off `event`, under the guide's lock and the event's (in assignment's order),
 * from the event as read under them: 404 when the guide is not on it, so of identical
 * removals at once one takes it off and the others find it gone. A deleted guide has no
 * lock left to take; the event's lock alone orders its removals from past events.
 */
export async function unassignGuide(
  trx: Tx,
  guides: GuidesFacade,
  event: EventRow,
  guideId: string,
): Promise<EventRow> {
  await guides.lock(trx, guideId);
  const current = await lockedEvent(trx, event);
  requireGuideOn(current, guideId);
  await eventGuidesRepository(trx).removeGuide(event.id, guideId);
  return current;
}

/**
 * A guide's answer to its assignment (v2018-06-26), under the guide's lock. Taking back a
 * declined assignment (to pending or confirmed) claims the time again, so it passes the
 * assignment's checks again (schedule, and overlap without forceConfirm): the guide may
 * have been given an overlapping event meanwhile.
 */
export async function acknowledge(
  trx: Tx,
  guides: GuidesFacade,
  event: EventRow,
  guideId: string,
  status: GuideStatus,
): Promise<GuidesChange> {
  const guide = await lockedGuide(trx, guides, event, guideId);
  const current = await lockedEvent(trx, event);
  requireGuideOn(current, guideId);
  const was = current.guide_statuses[guideId] ?? 'confirmed';
  if (was === status) return { before: current, changed: false };
  if (was === 'declined') {
    await checkAvailable(trx, guides, guide, current, { forceConfirm: false, checkSchedule: true });
  }
  await eventGuidesRepository(trx).setGuideStatus(event.id, guideId, status);
  return { before: current, changed: true };
}

/** The assignment rules: the guide's schedules, then its other events. */
async function checkAvailable(
  trx: Tx,
  guides: GuidesFacade,
  guide: GuideProfile,
  current: EventRow,
  options: AssignmentOptions,
  accepted?: Pick<EventRow, 'starts_at' | 'ends_at'>,
): Promise<void> {
  const guideId = guide.id;
  if (options.checkSchedule) {
    const reason = unavailability(guide.schedules, {
      start: current.starts_at,
      end: current.ends_at,
      timezone: current.timezone,
    });
    if (reason) {
      throw new DomainError(
        'guide_unavailable',
        `${guide.name} is not available for this event: ${reason}`,
        { guide: { id: guideId } },
      );
    }
  }
  if (!options.forceConfirm) {
    const clash = await eventGuidesRepository(trx).overlappingWithGuide(guideId, current, accepted);
    if (clash) {
      throw new DomainError(
        'guide_conflict',
        `${guide.name} is already on an overlapping event; send forceConfirm: true to assign anyway.`,
        { guide: { id: guideId }, event: toEventView(clash) },
      );
    }
  }
}

/** The most guides auto-assignment examines for one event (a bound on its work). */
export const AUTO_ASSIGN_CANDIDATES = 100;

/**
 * Auto-assignment (the experience's `guide.autoAssign`): up to `wanted` of the seller's
 * guides, in id order (the order they were created), each one that the assignment rules
 * allow (its schedules, no overlapping event it has not declined), as `pending`.
 *
 * Candidates are picked in SQL first, unlocked (live, with an available schedule, not on
 * an overlapping event: guides that can never qualify cost no statement of their own),
 * then the schedule rule runs on them, and only the ones chosen are locked, skipping any
 * another transaction holds (a booking never waits on, or deadlocks with, staff assigning
 * guides), and read again under the lock, as a manual assignment checks after its lock.
 * A page of candidates costs three statements (candidates, lock, re-read) and one per guide
 * assigned. The guides assigned, maybe fewer than wanted.
 */
export async function autoAssign(
  trx: Tx,
  guides: GuidesFacade,
  event: EventRow,
  wanted: number,
): Promise<string[]> {
  const assigned: string[] = [];
  const interval = { start: event.starts_at, end: event.ends_at, timezone: event.timezone };
  const fits = (guide: GuideProfile) => !unavailability(guide.schedules, interval);
  const departure = {
    id: event.id,
    sellerId: event.seller_id,
    start: event.starts_at,
    end: event.ends_at,
  };
  let after = '';
  for (let examined = 0; assigned.length < wanted && examined < AUTO_ASSIGN_CANDIDATES;) {
    const missing = wanted - assigned.length;
    // A few more than missing: some may fail the schedule rule or be held elsewhere.
    const limit = Math.min(AUTO_ASSIGN_CANDIDATES - examined, Math.max(8, 2 * missing));
    const page = await guides.freeFor(trx, departure, {
      after,
      exclude: [...event.guide_ids, ...assigned],
      limit,
    });
    examined += page.length;
    const fitting = page.filter(fits);
    const chosen = fitting.slice(0, missing);
    const locked = await guides.lockFree(
      trx,
      departure,
      chosen.map((g) => g.id),
    );
    for (const guide of locked) {
      // Its schedules may have changed before the lock was taken.
      if (!fits(guide)) continue;
      await eventGuidesRepository(trx).addGuide(event.id, guide.id);
      assigned.push(guide.id);
    }
    // Fitting guides left out of this page come first in the next, should one be needed.
    const last = chosen.length < fitting.length ? chosen[chosen.length - 1] : page[page.length - 1];
    if (!last || (page.length < limit && chosen.length === fitting.length)) break;
    after = last.id;
  }
  return assigned;
}

/** Sets the guides of an event to exactly `guideIds` (POST /api/events), checking the new ones. */
export async function setGuides(
  trx: Tx,
  guides: GuidesFacade,
  event: EventRow,
  guideIds: readonly string[],
  options: { forceConfirm: boolean; checkSchedule: (guideId: string) => boolean },
): Promise<void> {
  const wanted = [...new Set(guideIds)];
  const removed = event.guide_ids.filter((id) => !wanted.includes(id));
  for (const id of removed) await eventGuidesRepository(trx).removeGuide(event.id, id);
  // Locks are taken in id order, like seats, so concurrent requests cannot wait in a cycle;
  // the guides are then added in the order given, which is the order the event lists them.
  for (const id of [...wanted].sort()) await guides.lock(trx, id);
  for (const id of wanted) {
    const checkSchedule = options.checkSchedule(id);
    await assignGuide(trx, guides, event, id, {
      forceConfirm: options.forceConfirm,
      checkSchedule,
    });
  }
}

/**
 * An event whose window grew (an upsert after its experience's duration changed): the
 * guides still on it, who have not declined, checked against the new window as an
 * assignment is (schedule; overlap with no forceConfirm). An overlap the old window had
 * already was accepted when it was made (a forceConfirm, say) and stays so; a window that
 * did not grow cannot add a conflict, and is not checked. A guide kept on a longer event
 * could otherwise be on two departures at once, or outside its schedule.
 */
export async function recheckGuides(
  trx: Tx,
  guides: GuidesFacade,
  moved: { before: EventRow; after: EventRow },
  checkSchedule: boolean,
): Promise<void> {
  const { before, after } = moved;
  const grew = after.starts_at < before.starts_at || after.ends_at > before.ends_at;
  if (!grew) return;
  for (const guideId of [...after.guide_ids].sort()) {
    if (after.guide_statuses[guideId] === 'declined') continue;
    const guide = await lockedGuide(trx, guides, after, guideId);
    const options = { forceConfirm: false, checkSchedule };
    await checkAvailable(trx, guides, guide, after, options, before);
  }
}

export function requireGuideOn(event: EventRow, guideId: string): void {
  if (!event.guide_ids.includes(guideId)) throw notFound(`Guide ${guideId} on event ${event.id}`);
}
