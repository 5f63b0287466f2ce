/**
 * Guests (issue 29, docs/booking.md "Guests"): every seat of an order item is a guest with
 * its own ticket code and status. Pure rules: the guests a new item gets (its guest types
 * expanded in the order booked, then the seats without a type), how a change revises an
 * item's live guests (kept where their seats stay, new ones for added seats, canceled with
 * their seats, moved with their item), the item's aggregate `guestStatus`, and the view.
 */
import type { Selectable } from 'kysely';
import { Type, type Static } from 'typebox';
import { newId } from '../../db/ids.js';
import type { GuestStatus, OrderGuestsTable } from '../../db/types.js';
import { Id, Nullable, Ref } from '../../http/schemas.js';
import { refOrNull } from '../shared/index.js';
import { newTicketCode } from './booking-codes.js';
import { holdsSeats } from './item-status.js';
import type { OrderItemRow } from './orders.schemas.js';
import type { DemographicLine } from './pricing.js';

export type GuestRow = Selectable<OrderGuestsTable>;
/** What an order's view needs of a guest (what the order reads carry). */
export type GuestFacts = Pick<
  GuestRow,
  'id' | 'item_id' | 'demographic_id' | 'ticket_code' | 'status' | 'position'
>;

export const GUEST_STATUSES = ['pending', 'arrived', 'no_show'] as const satisfies GuestStatus[];

const GuestStatusSchema = Type.Enum(GUEST_STATUSES, {
  description: "Xola's guestStatus: pending (expected), arrived (checked in), no_show",
});

export const Guest = Type.Object(
  {
    id: Id,
    demographic: Nullable(Ref),
    ticketCode: Type.String({
      description:
        'Scanned at the dock (POST /api/checkins): 32 lowercase hex characters, unique, unguessable',
    }),
    guestStatus: GuestStatusSchema,
  },
  { description: 'One seat of the item' },
);
export type GuestView = Static<typeof Guest>;

export const ItemGuestStatus = Type.Enum(GUEST_STATUSES, {
  description:
    "The item's guests together: pending while any live guest is pending (or it has none), else arrived when at least one arrived, else no_show",
});

export const toGuestView = (guest: GuestFacts): GuestView => ({
  id: guest.id,
  demographic: refOrNull(guest.demographic_id),
  ticketCode: guest.ticket_code,
  guestStatus: guest.status,
});

/**
 * The item's aggregate: `pending` while any live guest is still expected (or there is none),
 * then `arrived` if anyone came, `no_show` if nobody did.
 */
export function itemGuestStatus(guests: readonly Pick<GuestRow, 'status'>[]): GuestStatus {
  if (guests.length === 0 || guests.some((g) => g.status === 'pending')) return 'pending';
  return guests.some((g) => g.status === 'arrived') ? 'arrived' : 'no_show';
}

/** The guest type of each seat of an item: its lines expanded in order, then untyped seats. */
export function seatTypes(
  item: Pick<OrderItemRow, 'quantity' | 'demographics'>,
): (string | null)[] {
  const lines = item.demographics as unknown as DemographicLine[];
  const seats: (string | null)[] = lines.flatMap((line) =>
    Array.from({ length: line.quantity }, () => line.demographic.id),
  );
  while (seats.length < item.quantity) seats.push(null);
  return seats.slice(0, item.quantity);
}

/** A new guest of an item, at `position`. */
const newGuest = (
  item: OrderItemRow,
  demographicId: string | null,
  position: number,
  at: Date,
): GuestRow => ({
  id: newId(at.getTime()),
  order_id: item.order_id,
  item_id: item.id,
  seller_id: item.seller_id,
  event_id: item.event_id,
  demographic_id: demographicId,
  ticket_code: newTicketCode(at.getTime()),
  status: 'pending',
  checked_in_at: null,
  checked_in_by: null,
  position,
  created_at: at,
  canceled_at: null,
});

/** The guests of items booked now: one per seat. */
export const guestsOf = (items: readonly OrderItemRow[], at: Date): GuestRow[] =>
  items.flatMap((item) => seatTypes(item).map((type, i) => newGuest(item, type, i, at)));

/** What a change does to guests: new ones, canceled ones, and those moved to another event. */
export interface GuestRevision {
  added: GuestRow[];
  canceled: string[];
  /** Event id -> the live guests moving there with their item. */
  moved: Map<string, string[]>;
}

/** Guests who checked in (or were marked no-show) are kept first when seats are taken off. */
const keptFirst = (a: GuestFacts, b: GuestFacts) =>
  Number(a.status === 'pending') - Number(b.status === 'pending') || a.position - b.position;

/**
 * How an order's live guests follow its items after a change: an item that no longer holds
 * seats loses them all; one that does keeps, per guest type, as many as it now has seats of
 * that type (those already checked in first, then in order), cancels the rest and gets new
 * guests for the seats added; a moved item's guests follow it to its new event.
 */
export function reviseGuests(
  items: readonly OrderItemRow[],
  live: readonly (GuestFacts & Pick<GuestRow, 'event_id'>)[],
  at: Date,
): GuestRevision {
  const revision: GuestRevision = { added: [], canceled: [], moved: new Map() };
  for (const item of items) {
    const current = live.filter((g) => g.item_id === item.id);
    if (!holdsSeats(item.status)) {
      revision.canceled.push(...current.map((g) => g.id));
      continue;
    }
    const wanted = new Map<string | null, number>();
    for (const type of seatTypes(item)) wanted.set(type, (wanted.get(type) ?? 0) + 1);
    let next = current.reduce((max, g) => Math.max(max, g.position + 1), 0);
    const kept: typeof current = [];
    for (const guest of [...current].sort(keptFirst)) {
      const left = wanted.get(guest.demographic_id) ?? 0;
      if (left > 0) {
        wanted.set(guest.demographic_id, left - 1);
        kept.push(guest);
      } else revision.canceled.push(guest.id);
    }
    for (const type of seatTypes(item)) {
      const left = wanted.get(type) ?? 0;
      if (left === 0) continue;
      wanted.set(type, left - 1);
      revision.added.push(newGuest(item, type, next++, at));
    }
    const moving = kept.filter((g) => g.event_id !== item.event_id).map((g) => g.id);
    if (moving.length > 0)
      revision.moved.set(item.event_id, [...(revision.moved.get(item.event_id) ?? []), ...moving]);
  }
  return revision;
}

/** The live guests after a revision (for the order's view). */
export function applyRevision<G extends GuestFacts & Pick<GuestRow, 'event_id'>>(
  live: readonly G[],
  revision: GuestRevision,
): (G | GuestRow)[] {
  const canceled = new Set(revision.canceled);
  const movedTo = new Map<string, string>();
  for (const [eventId, ids] of revision.moved) for (const id of ids) movedTo.set(id, eventId);
  return [
    ...live
      .filter((g) => !canceled.has(g.id))
      .map((g) => (movedTo.has(g.id) ? { ...g, event_id: movedTo.get(g.id)! } : g)),
    ...revision.added,
  ];
}
