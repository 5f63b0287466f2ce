/**
 * A departure's manifest (`GET /api/events/{id}/manifest`): the event with its guides, and
 * its live guests with their booking's name, code, notes and status, with counts of all of
 * them. Two queries whatever the number of guests: the event with its guides' profiles, then
 * a page of guests with their orders and items and the counts. The seller and its check-in
 * staff; anyone else 404.
 *
 * Bounded whatever bookers write (docs/operations-day.md "How big a manifest gets"): each
 * order's notes are clipped to NOTES_CHARS on the manifest, and one response holds the
 * guests that fit in PAGE_WEIGHT bytes written out in the costliest way any format escapes
 * them (at most PAGE_GUESTS), `paging.next` going on from there (a cursor holding the last
 * guest's place: manifest-cursor.ts). Before, 200 seats booked anonymously with 40 KB of
 * notes each made a 28 MB JSON manifest, and 800 took a process with a 128 MB heap down.
 */
import type { Db } from '../../db/database.js';
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { invalid, notFound } from '../../domain/errors.js';
import { eventsFacade } from '../events/index.js';
import { ordersFacade, type ManifestGuest } from '../orders/index.js';
import { iso, refOrNull } from '../shared/index.js';
import type { ManifestView } from './checkins.schemas.js';
import type { CursorKeys } from './cursor-seal.js';
import { cursorOf, readCursor } from './manifest-cursor.js';

/** An order's notes on the manifest, in characters over all its notes (it keeps them whole). */
const NOTES_CHARS = 1000;
/** The most guests one manifest response lists (the rows one page reads). */
const PAGE_GUESTS = 2000;
/** The bytes one response's guests may take, each weighed as `weight` says. */
const PAGE_WEIGHT = 2 * 1024 * 1024;
/**
 * A guest's bytes at most, in any format: its fixed fields and markup (ids, codes, keys, a
 * table row: under 512), and 6 bytes a character of what bookers typed, the costliest
 * escape of any format (JSON writes a control character as `\u0001`; HTML `<` as `&#60;`,
 * 5; UTF-8 at most 3 a UTF-16 unit).
 */
const weight = (guest: ManifestView['guests'][number]): number =>
  512 +
  6 *
    (guest.name.length +
      (guest.guestType?.length ?? 0) +
      guest.notes.reduce((sum, note) => sum + note.length, 0));

/** How many of `guests` fit in PAGE_WEIGHT (the first always does). */
function fitting(guests: ManifestView['guests']): number {
  let bytes = 0;
  for (const [i, guest] of guests.entries()) {
    bytes += weight(guest);
    if (i > 0 && bytes > PAGE_WEIGHT) return i;
  }
  return guests.length;
}

/** The cursor of the page after one ending with `guest`: its place as this page read it. */
const nextCursor = (keys: CursorKeys, eventId: string, guest: ManifestGuest): string =>
  cursorOf(keys, eventId, {
    customerName: guest.order.customerName,
    orderId: guest.order.id,
    itemPosition: guest.itemPosition,
    position: guest.position,
    id: guest.id,
  });

export function manifestService(deps: {
  db: Db;
  now?: () => Date;
  /** What paging cursors are sealed with (cursor-seal.ts). */
  cursorKeys: CursorKeys;
}) {
  const now = deps.now ?? (() => new Date());
  const keys = deps.cursorKeys;
  return {
    async manifest(
      caller: Caller,
      eventId: string,
      query: { startingAfter?: string } = {},
    ): Promise<ManifestView> {
      const head = await eventsFacade.withGuides(deps.db, eventId);
      if (!head || !accessOf(caller).can('checkins', head.event.seller.id))
        throw notFound(`Event ${eventId}`);
      const after = query.startingAfter ? readCursor(keys, eventId, query.startingAfter) : null;
      const read = await ordersFacade.guests.atEvent(deps.db, eventId, {
        now: now(),
        after,
        // One more than a page: whether there is more.
        limit: PAGE_GUESTS + 1,
        notesChars: NOTES_CHARS,
      });
      if (!read.cursorFound)
        throw invalid(
          'query',
          'startingAfter',
          'is not a guest of this departure: send paging.next as it is',
        );
      const guests = read.guests.map((g) => ({
        id: g.id,
        name: g.order.customerName,
        guestType: g.guestType,
        demographic: refOrNull(g.demographicId),
        order: { id: g.order.id },
        shortCode: g.order.shortCode,
        ticketCode: g.ticketCode,
        guestStatus: g.guestStatus,
        checkedInAt: g.checkedInAt === null ? null : iso(g.checkedInAt),
        itemStatus: g.itemStatus,
        notes: g.order.notes,
      }));
      const kept = Math.min(fitting(guests), PAGE_GUESTS);
      const last = kept < guests.length ? read.guests[kept - 1] : undefined;
      return {
        object: 'manifest',
        event: head.event,
        // The departure's local date, as its start shows it.
        date: head.event.start.slice(0, 10),
        timezone: head.timezone,
        guides: head.guides,
        counts: read.counts,
        guests: guests.slice(0, kept),
        paging: {
          next: last
            ? `/api/events/${eventId}/manifest?startingAfter=${nextCursor(keys, eventId, last)}`
            : null,
        },
      };
    },
  };
}

export type ManifestService = ReturnType<typeof manifestService>;
