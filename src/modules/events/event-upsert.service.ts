/**
 * Xola's event upsert (`POST /api/events`): creates the event of an experience at a start,
 * or updates the one already there, with its guides; 201 both ways, audited as
 * `event.update`.
 */
import { isCheckViolation } from '../../db/errors.js';
import { inTransaction, type Tx } from '../../db/unit-of-work.js';
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { DomainError, invalid } from '../../domain/errors.js';
import { experiencesFacade as experiences } from '../experiences/index.js';
import { guidesFacade as guides } from '../guides/index.js';
import { resourcesFacade, type ResourceUse } from '../resources/index.js';
import type { Recorder } from '../idempotency/index.js';
import type { EventSink } from '../../outbox/index.js';
import { isDepartureStart, parseStart } from '../schedules/index.js';
import { recheckGuides, setGuides } from './assignment.js';
import { eventsRepository } from './events.repository.js';
import { experienceMustExist } from './events.rules.js';
import { announceEventUpdate, capacityBelowReserved } from './event-changes.js';
import type { EventRow, EventView } from './events.schemas.js';
import type { EventsServiceDeps } from './events.service.js';
import { LATEST_GUIDE_WRITES, type GuideWrites } from './events.versions.js';
import { newEventAt } from './new-event.js';
import { staffNewEvent } from './seats.js';

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

/**
 * An event that holds seats was upserted with another end (its experience's duration changed
 * since): what it holds of its resources moves to its new window, checked under their locks
 * as a booking's seats are; 409 resource_full when they cannot carry its guests that long.
 * Decided from the event as locked by the upsert and the windows its resources hold, never
 * from the event as read before: a booking may have taken seats (over the old window) in
 * between.
 */
async function holdOverWindow(tx: Tx, id: string, uses: readonly ResourceUse[]): Promise<void> {
  if (uses.length === 0) return;
  const after = (await eventsRepository(tx).findById(id))!;
  if (after.reserved === 0) return;
  const windows = await resourcesFacade.seats.windowsOf(tx, id);
  const moved = windows.some(
    (w) =>
      w.start.getTime() !== after.starts_at.getTime() ||
      w.end.getTime() !== after.ends_at.getTime(),
  );
  if (!moved) return;
  try {
    await resourcesFacade.seats.take(tx, [
      {
        eventId: after.id,
        start: after.starts_at,
        end: after.ends_at,
        reserved: after.reserved,
        taken: 0,
        item: 0,
        // Those it holds too: one added to the experience since it was read is moved as well.
        uses: [...uses, ...windows.map((w) => ({ id: w.resourceId, seatsPerGuest: 1 }))],
      },
    ]);
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'resource_full') throw error;
    const { resource, seatsLeft } = error.extra as {
      resource: { name: string };
      seatsLeft: number;
    };
    throw new DomainError(
      'resource_full',
      `${resource.name} cannot carry this departure's ${after.reserved} guests until its new end (${after.ends_at.toISOString()}).`,
      { resource, event: { id: after.id }, seatsLeft },
    );
  }
}

const sameWindow = (a: EventRow, b: EventRow) =>
  a.starts_at.getTime() === b.starts_at.getTime() && a.ends_at.getTime() === b.ends_at.getTime();

/**
 * The event as a caller on an older version sees it: without the guides its version does
 * not show (GuideWrites.hides). `setGuides` sets the guides of the row it is given, so those
 * it does not list stay as they are: a client sending back the guides it read removes no
 * guide it could not see.
 */
async function asSeen(tx: Tx, event: EventRow, hides: GuideWrites['hides']): Promise<EventRow> {
  if (!hides.declined && !hides.unlinked) return event;
  const linked = hides.unlinked ? await guides.usersOfGuides(tx, event.guide_ids) : undefined;
  const shown = event.guide_ids.filter(
    (id) =>
      !(hides.declined && event.guide_statuses[id] === 'declined') && (linked?.has(id) ?? true),
  );
  return { ...event, guide_ids: shown };
}

/**
 * Before v2018-02-26, guides named by delegates' user ids: their profiles, made if missing,
 * and which of them a user id named (a guide id is taken as it is).
 */
async function delegatesAsGuides(
  tx: Tx,
  domainEvents: EventSink,
  caller: Caller,
  sellerId: string,
  ids: readonly string[],
): Promise<{ ids: string[]; ofUsers: Set<string> }> {
  const resolved: string[] = [];
  const ofUsers = new Set<string>();
  for (const id of ids) {
    const guideId = await guides.delegateAsGuide(tx, domainEvents, caller.id, sellerId, id);
    resolved.push(guideId);
    if (guideId !== id) ofUsers.add(guideId);
  }
  return { ids: [...new Set(resolved)], ofUsers };
}

/** Creates the event, or updates the one at the same start (201 both ways). */
export const eventUpsert =
  ({ db, domainEvents }: Required<EventsServiceDeps>) =>
  async (
    caller: Caller,
    input: EventInput,
    record: Recorder,
    writes: GuideWrites = LATEST_GUIDE_WRITES,
  ): Promise<EventView> => {
    const { checkSchedule } = writes;
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
    // Availability lists a departure and bookings name it by local date and HHMM: an event
    // they cannot name would be listed with the wrong seats and never be booked.
    if (!isDepartureStart(start, experience.timezone)) {
      throw invalid(
        'body',
        'start',
        `must be a whole minute and, on a fall-back night, the second occurrence of a time the clocks show twice in ${experience.timezone} (as bookings read it)`,
      );
    }
    const named = input.guides && [...new Set(input.guides.map(guideIdOf))];
    if (named !== undefined) {
      access.require('guides', experience.sellerId, `the guides of experience ${experience.id}`);
    }
    return inTransaction(db, async (tx) => {
      const events = eventsRepository(tx);
      const asDelegates =
        named && writes.delegatesAsGuides
          ? await delegatesAsGuides(tx, domainEvents, caller, experience.sellerId, named)
          : undefined;
      const guideIds = asDelegates?.ids ?? named;
      // What the event was, if there was one at this start (for the audit).
      const existing = await events.findAt(experience.id, start);
      // Guides before the event, as assignment and deletion lock them: one lock order
      // everywhere, so these paths cannot deadlock each other. Those it has are locked too:
      // a longer window checks them again (recheckGuides).
      const locked = new Set([...(guideIds ?? []), ...(existing?.guide_ids ?? [])]);
      for (const guideId of [...locked].sort()) await guides.lock(tx, guideId);
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
          throw capacityBelowReserved();
        }
        throw error;
      }
      const { id, created } = written;
      if (!created) await holdOverWindow(tx, id, experience.resources);
      if (guideIds !== undefined) {
        // Guides obey the same rule as POST /api/events/{id}/guides (no forceConfirm here),
        // and set those the caller's version shows: the others stay (asSeen).
        const seen = await asSeen(tx, (await events.findById(id))!, writes.hides);
        // An older version's delegate (named by its user id) had no schedule to check; a
        // guide named by its id has one, whatever the version (as POST .../guides).
        await setGuides(tx, guides, seen, guideIds, {
          forceConfirm: false,
          checkSchedule: (id) => checkSchedule || !asDelegates?.ofUsers.has(id),
        });
      } else if (created) {
        await staffNewEvent(tx, id, experience.guide);
      }
      const after = (await events.findById(id))!;
      if (existing && !sameWindow(existing, after)) {
        await recheckGuides(tx, guides, { before: existing, after }, checkSchedule);
      }
      const view = await announceEventUpdate(domainEvents, tx, {
        id,
        sellerId: experience.sellerId,
        actorId: caller.id,
        before: existing,
      });
      await record(tx, { status: 201, body: view });
      return view;
    });
  };
