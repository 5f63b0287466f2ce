/**
 * A deleted guide leaving the events that have not started, in the deletion's transaction:
 * each event it leaves is announced as `event.update` with its `guides` before and after, as
 * taking the guide off by hand (`DELETE /api/events/{id}/guides/{guideId}`) announces it.
 * The deletion holds the guide's lock, so no assignment can put it back meanwhile.
 */
import type { Selectable } from 'kysely';
import type { EventsTable } from '../../db/types.js';
import type { Tx } from '../../db/unit-of-work.js';
import { inOneStatement } from '../../db/write-batch.js';
import type { EventSink } from '../../outbox/index.js';
import { emitEventUpdate } from './event-changes.js';
import { eventGuidesRepository } from './event-guides.repository.js';
import type { EventRow } from './events.schemas.js';

/**
 * The events locked, changed and announced at a time. A guide on thousands of future events
 * is taken off them by pages, so no statement carries an unbounded list of ids and no more
 * than a page of rows is held in memory; every page still commits or rolls back with the
 * deletion, and every event is announced.
 */
export const LEAVE_PAGE = 200;

/**
 * Announcements sent as one statement (db/write-batch.ts): always this many, the rest one
 * by one, so that guide deletions add one statement shape (db/write-shapes.ts) and one of the
 * prepared writes (db/prepared.ts, MAX_PREPARED.writes), not one per page's remainder.
 */
export const ANNOUNCED_TOGETHER = 50;

export async function leaveFutureEvents(
  tx: Tx,
  domainEvents: EventSink,
  actorId: string,
  guideId: string,
  now: Date,
): Promise<void> {
  const repository = eventGuidesRepository(tx);
  for (;;) {
    // The guide is gone from every page done, so the next read starts after them. Only an
    // empty page ends: a short one may have lost an event deleted while its lock was awaited.
    const page = await repository.lockFutureWithGuide(guideId, now, LEAVE_PAGE);
    if (page.length === 0) return;
    const after = await repository.removeGuideFromEvents(
      page.map((e) => e.id),
      guideId,
    );
    const left = { domainEvents, actorId, after: new Map(after.map((row) => [row.id, row])) };
    for (let at = 0; at < page.length; at += ANNOUNCED_TOGETHER) {
      const events = page.slice(at, at + ANNOUNCED_TOGETHER);
      if (events.length < ANNOUNCED_TOGETHER) await announce(tx, left, events);
      else await inOneStatement(tx, (batch) => announce(batch, left, events));
    }
  }
}

/** `event.update` for each of `events` (rows before), with its row after from `left.after`. */
async function announce(
  tx: Tx,
  left: { domainEvents: EventSink; actorId: string; after: Map<string, Selectable<EventsTable>> },
  events: readonly EventRow[],
): Promise<void> {
  for (const before of events) {
    await emitEventUpdate(left.domainEvents, tx, {
      sellerId: before.seller_id,
      actorId: left.actorId,
      before,
      // The experience's name and zone, which the view shows, are the page's.
      after: { ...before, ...left.after.get(before.id)! },
    });
  }
}
