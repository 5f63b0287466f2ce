/**
 * Which guests a scanned code checks in, as pure rules (docs/operations-day.md): a guest's
 * ticket code names that guest, an item's its live guests, an order's short code its live
 * guests not yet arrived on departures of today (the departure's local day). A canceled
 * seat is `409 guest_canceled`, a guest already in `409 already_checked_in` (the service
 * names who), a guest of an item not confirmed (a hold, a pending item) `409
 * item_not_confirmed`, a departure on another local day `409 wrong_day` unless forced (a
 * short code picks today's guests first, then their confirmed ones: `pickOfToday`). And the
 * check-in object as the API shows it.
 */
import { newId } from '../../db/ids.js';
import { DomainError } from '../../domain/errors.js';
import {
  ITEM_STATUS,
  holdsSeats,
  type GuestRecord,
  type OrderItemView,
  type OrderView,
} from '../orders/index.js';
import { instantToLocal } from '../schedules/index.js';
import { iso, ref, refOrNull } from '../shared/index.js';
import type { CheckinRow } from './checkins.repository.js';
import type { CheckinView } from './checkins.schemas.js';

/** What a code names in its order. */
export interface Named {
  kind: 'guest' | 'item' | 'order';
  id: string;
}

/** The guests to check in, or the guest that is in already (the service says by whom). */
export type Picked = { guests: GuestRecord[] } | { alreadyIn: GuestRecord };

/** The order's item a guest sits on. */
const itemOf = (order: OrderView, guest: GuestRecord): OrderItemView =>
  order.items.find((i) => i.id === guest.itemId)!;

/** Today in each guest's departure's zone, and whether the departure is then. */
function today(order: OrderView, timezones: Map<string, string>, guest: GuestRecord, now: Date) {
  const item = itemOf(order, guest);
  const date = instantToLocal(now, timezones.get(item.id) ?? 'UTC').date;
  return { date, onDay: item.arrival === date, item };
}

function wrongDay(
  order: OrderView,
  timezones: Map<string, string>,
  guests: readonly GuestRecord[],
  now: Date,
): DomainError {
  const days = guests.map((g) => today(order, timezones, g, now));
  const departures = [...new Map(days.map((d) => [d.item.event.id, d.item])).values()].map(
    (item) => ({ event: item.event, arrival: item.arrival, arrivalTime: item.arrivalTime }),
  );
  const list = departures.map((d) => `${d.arrival} ${String(d.arrivalTime)}`).join(', ');
  return new DomainError(
    'wrong_day',
    `The departure is not today (${days[0]!.date}): ${list}. Send force: true to check in anyway.`,
    { today: days[0]!.date, departures },
  );
}

/**
 * A guest whose seat is held (item status 103) past its order's deadline: the seat is no
 * longer the guest's, though the sweeper may not have given it back yet (it runs every few
 * seconds), so it is refused as a canceled seat is. Not one checked in (a hold is not
 * checked in, but staff may set a checked-in guest's item back to 103): it is on board, and
 * the sweeper keeps its seat (holds.service.ts).
 */
export const heldPastDeadline = (order: OrderView, guest: GuestRecord, now: Date): boolean =>
  itemOf(order, guest).status === ITEM_STATUS.hold &&
  guest.guestStatus !== 'arrived' &&
  order.holdExpiresAt !== null &&
  Date.parse(order.holdExpiresAt) <= now.getTime();

/**
 * Whether a guest's item is confirmed (200-299): only then may it check in. A hold (103) or a
 * pending item (100) may still lose its seat to the sweeper or the seller, and a guest on
 * board must never be canceled behind the dock's back.
 */
export const confirmedSeat = (order: OrderView, guest: GuestRecord): boolean =>
  itemOf(order, guest).status >= ITEM_STATUS.confirmed && holdsSeats(itemOf(order, guest).status);

/** 409 item_not_confirmed for guests whose items are not confirmed, naming the items. */
export function notConfirmed(order: OrderView, guests: readonly GuestRecord[]): DomainError {
  const items = [...new Set(guests.map((g) => g.itemId))].map((id) => {
    const item = order.items.find((i) => i.id === id)!;
    return { id, status: item.status };
  });
  return new DomainError(
    'item_not_confirmed',
    `The booking is not confirmed (item status ${items.map((i) => i.status).join(', ')}: on hold or pending). Confirm it (status 200) before checking its guests in.`,
    { items },
  );
}

/** The guests of `guests` whose seats are theirs now: not canceled, nor a hold run out. */
export const liveGuests = (order: OrderView, guests: readonly GuestRecord[], now: Date) =>
  guests.filter((g) => g.canceledAt === null && !heldPastDeadline(order, g, now));

/** The guest of `guests` checked in last. */
const latestIn = (guests: readonly GuestRecord[]): GuestRecord =>
  [...guests].sort((a, b) => (b.checkedInAt?.getTime() ?? 0) - (a.checkedInAt?.getTime() ?? 0))[0]!;

/** The guests a scan of `named` checks in (see the header). */
export function pickGuests(
  named: Named,
  order: OrderView,
  timezones: Map<string, string>,
  guests: readonly GuestRecord[],
  when: { now: Date; force: boolean },
): Picked {
  const chosen = guests.filter((g) =>
    named.kind === 'guest'
      ? g.id === named.id
      : named.kind === 'item'
        ? g.itemId === named.id
        : true,
  );
  const live = liveGuests(order, chosen, when.now);
  if (live.length === 0) {
    const guest = chosen[0];
    const expired = chosen.some((g) => g.canceledAt === null);
    throw new DomainError(
      'guest_canceled',
      named.kind === 'guest'
        ? expired
          ? "This guest's seat was on hold, and the hold has run out."
          : "This guest's seat was canceled."
        : expired
          ? 'Every seat this code names was canceled or on a hold that has run out.'
          : 'Every seat this code names was canceled.',
      guest ? { guest: ref(guest.id) } : {},
    );
  }
  const waiting = live.filter((g) => g.guestStatus !== 'arrived');
  if (waiting.length === 0) return { alreadyIn: latestIn(live) };
  if (named.kind === 'order' && !when.force) return pickOfToday(order, timezones, live, when.now);
  // A ticket (or a forced short code) names its guests whatever their day: the refusal that
  // force cannot lift, not confirmed, comes before the one it can.
  const confirmed = confirmedOf(order, waiting);
  if (!when.force && !confirmed.every((g) => today(order, timezones, g, when.now).onDay))
    throw wrongDay(order, timezones, confirmed, when.now);
  return { guests: confirmed };
}

/**
 * The guests of `guests` whose items are confirmed (guests of unconfirmed items wait for
 * their booking), or `409 item_not_confirmed` naming the items when none is.
 */
function confirmedOf(order: OrderView, guests: readonly GuestRecord[]): GuestRecord[] {
  const confirmed = guests.filter((g) => confirmedSeat(order, g));
  if (confirmed.length === 0) throw notConfirmed(order, guests);
  return confirmed;
}

/**
 * An order's short code, not forced: the day first, the confirmation second. It names the
 * guests waiting on today's departures, and of those checks in the confirmed ones
 * (`item_not_confirmed` naming today's items when none is). Only when nobody waits today is
 * it another day: `wrong_day` naming the departures `force` would check in (or
 * `item_not_confirmed` when force could not either). Before, the unconfirmed were set aside
 * first: a hold of today beside a confirmed item of tomorrow answered `wrong_day`, and
 * following its "send force" checked in tomorrow's guests while today's stood at the dock.
 */
function pickOfToday(
  order: OrderView,
  timezones: Map<string, string>,
  live: readonly GuestRecord[],
  now: Date,
): Picked {
  const todays = live.filter((g) => today(order, timezones, g, now).onDay);
  // Today's guests all in, others on other days: a second scan of the same short code
  // (another member of the party) is told who is in, not to force the other days' in.
  const waitingToday = todays.filter((g) => g.guestStatus !== 'arrived');
  if (todays.length > 0 && waitingToday.length === 0) return { alreadyIn: latestIn(todays) };
  if (waitingToday.length > 0) return { guests: confirmedOf(order, waitingToday) };
  const waiting = live.filter((g) => g.guestStatus !== 'arrived');
  throw wrongDay(order, timezones, confirmedOf(order, waiting), now);
}

/** A check-in record of a guest, made now by `by`. */
export const newCheckin = (
  guest: GuestRecord,
  source: CheckinRow['source'],
  at: Date,
  by: string | null,
): CheckinRow => ({
  id: newId(at.getTime()),
  seller_id: guest.sellerId,
  guest_id: guest.id,
  order_id: guest.orderId,
  event_id: guest.eventId,
  source,
  created_at: at,
  created_by: by,
  undone_at: null,
  undone_by: null,
});

/** What a check-in shows of its guest's booking. */
export interface BookingFacts {
  ticketCode: string;
  demographicId: string | null;
  guestType: string | null;
  shortCode: string;
  customerName: string;
  itemId: string;
  arrival: string;
  arrivalTime: number;
}

/** A guest's booking facts, from its order as the API shows it. */
export function factsOf(guest: GuestRecord, order: OrderView): BookingFacts {
  const item = itemOf(order, guest);
  const line = item.demographics.find((l) => l.demographic.id === guest.demographicId);
  return {
    ticketCode: guest.ticketCode,
    demographicId: guest.demographicId,
    guestType: line?.label ?? null,
    shortCode: order.shortCode,
    customerName: order.customerName,
    itemId: item.id,
    arrival: item.arrival,
    arrivalTime: item.arrivalTime,
  };
}

/** A check-in as the API shows it, with its guest's booking. */
export function toCheckinView(row: CheckinRow, facts: BookingFacts): CheckinView {
  return {
    object: 'checkin',
    id: row.id,
    seller: ref(row.seller_id),
    guest: ref(row.guest_id),
    ticketCode: facts.ticketCode,
    demographic: refOrNull(facts.demographicId),
    guestType: facts.guestType,
    order: ref(row.order_id),
    shortCode: facts.shortCode,
    customerName: facts.customerName,
    item: ref(facts.itemId),
    event: ref(row.event_id),
    arrival: facts.arrival,
    arrivalTime: facts.arrivalTime,
    source: row.source,
    createdAt: iso(row.created_at),
    createdBy: refOrNull(row.created_by),
    undoneAt: row.undone_at === null ? null : iso(row.undone_at),
    undoneBy: refOrNull(row.undone_by),
  };
}
