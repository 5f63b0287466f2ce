/**
 * A reseller's changes to its booking (OCTo's confirm, extend, update, cancel), each under
 * the order's lock and through the orders module's one way of changing an order
 * (`reviseItems` plans what moves or resizes at today's prices, `commitChange` moves the
 * seats through the seat interface, revises the guests and emits `order.update` or
 * `order.cancel`). What only resellers meet is checked under that lock: a hold confirmed or
 * extended only before its deadline (the sweeper may not have run yet) and before its
 * departure starts, nothing changed or cancelled once the departure started, and no seat
 * moved, resized or given back once a guest of the booking checked in (a check-in takes the
 * same lock, so the two never race), and no hold kept past its reserve plus the longest hold
 * a reserve may ask (`MAX_HOLD_MINUTES`): extended again and again it would keep its seats
 * from sale forever without being booked. The reseller's own facts (confirmation, contact,
 * reference, each seat's uuid, how it ended) are written in the same transaction.
 */
import { inTransaction, type Tx } from '../../db/unit-of-work.js';
import { accessOf } from '../../domain/access.js';
import { invalid } from '../../domain/errors.js';
import { bookerIdOf, type Reseller } from '../../domain/caller.js';
import { experiencesFacade } from '../experiences/index.js';
import { ITEM_STATUS, holdsSeats } from './item-status.js';
import { reviseItems, type ItemEntry } from './order-change.service.js';
import { addSeats, seatsHeld } from './order-changes.js';
import { commitChange, type ChangeWork } from './order-writes.js';
import type { OrdersContext } from './orders.context.js';
import { ordersRepository } from './orders.repository.js';
import type { OrderItemRow, OrderRow, OrderView } from './orders.schemas.js';
import {
  refuse,
  resellerAsStaff,
  seatRows,
  type ContactGiven,
  type ResellerBookingRead,
  type SeatAsked,
} from './reseller-bookings.js';
import {
  resellerBookingsRepository,
  type ResellerBookingRow,
} from './reseller-bookings.repository.js';
import { readBooking } from './reseller-reads.service.js';
import { bookable, itemAt } from './reseller-reserve.service.js';

/** The longest a hold lasts from its reserve (OCTo's `expirationMinutes` at most: 24 h). */
export const MAX_HOLD_MINUTES = 24 * 60;

interface Locked {
  tx: Tx;
  order: OrderRow;
  items: OrderItemRow[];
  /** The booking's item (an OCTo booking is an order of one item). */
  item: OrderItemRow;
  booking: ResellerBookingRow;
  /** Whether a live guest of the booking has checked in (is on board, for the dock). */
  checkedIn: boolean;
}

/** Runs `work` on the reseller's booking under its order's lock; the booking after. */
async function underLock(
  ctx: OrdersContext,
  reseller: Reseller,
  uuid: string,
  work: (locked: Locked) => Promise<void>,
): Promise<ResellerBookingRead> {
  const row = await resellerBookingsRepository(ctx.db).findByUuid(bookerIdOf(reseller), uuid);
  if (!row) return refuse('unknown_booking', `no booking ${uuid}`);
  await inTransaction(ctx.db, async (tx) => {
    const orders = ordersRepository(tx);
    const order = await orders.lock(row.order_id);
    const items = (await orders.itemsOf([row.order_id])).get(row.order_id) ?? [];
    const repo = resellerBookingsRepository(tx);
    const booking = await repo.find(row.order_id);
    if (!order || !items[0] || !booking) return refuse('unknown_booking', `no booking ${uuid}`);
    const guests = await repo.guestsOf(row.order_id);
    const checkedIn = guests.some((g) => g.canceled_at === null && g.checked_in_at !== null);
    await work({ tx, order, items, item: items[0], booking, checkedIn });
  });
  return (await readBooking(ctx.db, row.order_id))!;
}

/** A hold still within its deadline, of a departure that has not started. */
function mustBeHeld(ctx: OrdersContext, { order, item }: Locked): void {
  if (!holdsSeats(item.status)) refuse('ended', 'the booking is cancelled or expired');
  if (item.status !== ITEM_STATUS.hold) refuse('not_held', 'the booking is not on hold');
  if (order.hold_expires_at && order.hold_expires_at.getTime() <= ctx.now().getTime())
    refuse('hold_expired', 'the hold has expired');
  // A hold may outlive its departure's start (reserved 10 minutes before, held 30).
  if (item.arrival_datetime.getTime() <= ctx.now().getTime())
    refuse('departure_started', 'the departure has started');
}

/**
 * A held booking's new deadline, `minutes` from now: refused past its reserve plus
 * `MAX_HOLD_MINUTES`, what a reserve may hold at most.
 */
function newDeadline(ctx: OrdersContext, order: OrderRow, minutes: number): Date {
  const until = new Date(ctx.now().getTime() + minutes * 60_000);
  const cap = new Date(order.created_at.getTime() + MAX_HOLD_MINUTES * 60_000);
  if (until.getTime() > cap.getTime()) {
    const left = Math.max(0, Math.floor((cap.getTime() - ctx.now().getTime()) / 60_000));
    throw invalid(
      'body',
      'expirationMinutes',
      `a hold lasts at most ${MAX_HOLD_MINUTES} minutes (24 hours) from its reserve: this one ` +
        `can be held until ${cap.toISOString()}, ${left} minutes from now; confirm it instead`,
    );
  }
  return until;
}

/** A live booking (held within its deadline, or confirmed) whose departure has not started. */
function mustBeLive(ctx: OrdersContext, locked: Locked): void {
  if (locked.item.status === ITEM_STATUS.hold) mustBeHeld(ctx, locked);
  else if (!holdsSeats(locked.item.status)) refuse('ended', 'the booking is cancelled');
  else if (locked.item.arrival_datetime.getTime() <= ctx.now().getTime())
    refuse('departure_started', 'the departure has started');
}

/** Confirmed by an earlier confirmation, and not cancelled since. */
const wasConfirmed = ({ booking, item }: Locked): boolean =>
  booking.confirmed_at !== null && holdsSeats(item.status) && item.status !== ITEM_STATUS.hold;

/**
 * No guest on board: OCTo lets a reseller cancel only what it shows `cancellable`, and
 * change seats only until the booking is redeemed; a guest who checked in keeps the seat
 * (the seller's staff can still change the order through Xola's API).
 */
function mustHaveNoneCheckedIn({ checkedIn }: Locked): void {
  if (checkedIn) refuse('checked_in', 'a guest of the booking has checked in');
}

/** The order's customer fields from a contact (a field not given stays as it is). */
const customerFields = (contact: ContactGiven | null | undefined): Partial<OrderRow> =>
  contact
    ? {
        ...(contact.name !== null ? { customer_name: contact.name } : {}),
        ...(contact.email !== null ? { customer_email: contact.email } : {}),
        ...(contact.phone !== null ? { phone: contact.phone } : {}),
      }
    : {};

export interface BookingChange {
  /** Another departure (and product): its experience and start. */
  experienceId?: string;
  start?: Date;
  /** Other seats: every unit item, as the booking should have them. */
  seats?: readonly SeatAsked[];
  contact?: ContactGiven | null;
  resellerReference?: string | null;
  notes?: string | null;
  /** A held booking's new hold length, from now. */
  holdMinutes?: number;
  /** The item's status after the change (confirming: 200). */
  status?: number;
}

/** The change of a locked booking: items revised, order committed, the reseller's facts written. */
async function apply(
  ctx: OrdersContext,
  reseller: Reseller,
  locked: Locked,
  change: BookingChange,
  reason: string,
): Promise<OrderView> {
  const { tx, order, items, item } = locked;
  const moving = change.experienceId !== undefined || change.start !== undefined;
  let after: readonly OrderItemRow[] = items;
  let work: ChangeWork = { changed: [], added: [], deltas: new Map() };
  if (moving || change.seats || change.status !== undefined) {
    const experience = await bookable(tx, reseller, change.experienceId ?? item.experience_id);
    const start = change.start ?? item.arrival_datetime;
    if (moving && start.getTime() <= ctx.now().getTime())
      refuse('departure_started', 'that departure has started');
    const { demographics, quantity, ...place } = itemAt(
      experience,
      start,
      change.seats ?? [],
      change.status ?? item.status,
    );
    const entry = {
      ...place,
      id: item.id,
      status: place.status as ItemEntry['status'],
      // Seats not given: the item keeps its own (its guest types, or its count).
      ...(change.seats ? (demographics ? { demographics } : { quantity }) : {}),
    } as ItemEntry;
    const known = await experiencesFacade.findMany(tx, [
      ...new Set([experience.id, item.experience_id]),
    ]);
    ({ after, work } = await reviseItems(ctx, tx, order, items, [entry], {
      access: accessOf(resellerAsStaff(reseller)),
      staff: true,
      experiences: new Map(known.map((e) => [e.id, e])),
    }));
  }
  const held = after[0]?.status === ITEM_STATUS.hold;
  const view = await commitChange(
    ctx,
    tx,
    order,
    items,
    after,
    { id: bookerIdOf(reseller), reason },
    {
      ...work,
      fields: {
        ...customerFields(change.contact),
        ...(change.notes !== undefined
          ? { notes: change.notes ? [{ text: change.notes }] : [] }
          : {}),
      },
      ...(held && change.holdMinutes !== undefined
        ? { holdUntil: newDeadline(ctx, order, change.holdMinutes) }
        : {}),
    },
  );
  const repo = resellerBookingsRepository(tx);
  await repo.update(order.id, {
    ...(change.contact !== undefined ? { contact: change.contact?.sent ?? null } : {}),
    ...(change.resellerReference !== undefined
      ? { reseller_reference: change.resellerReference }
      : {}),
  });
  if (change.seats) {
    const guests = view.items[0]!.guests.map((g) => ({
      id: g.id,
      demographicId: g.demographic?.id ?? null,
    }));
    await repo.replaceSeats(order.id, seatRows(order.id, guests, change.seats));
  }
  return view;
}

/**
 * Confirms a hold (within its deadline): its item 200, its contact and seats as sent. A
 * confirmation sent again (its answer lost on the way) is answered with the booking as it
 * is, as a repeated reserve or cancel is: the reseller must not take a confirmed booking for
 * a failed one. What the repeat carries is not applied; an update does that.
 */
export function confirmForReseller(
  ctx: OrdersContext,
  reseller: Reseller,
  uuid: string,
  change: Omit<BookingChange, 'experienceId' | 'start' | 'holdMinutes' | 'status'>,
): Promise<ResellerBookingRead> {
  return underLock(ctx, reseller, uuid, async (locked) => {
    if (wasConfirmed(locked)) return;
    mustBeHeld(ctx, locked);
    await apply(ctx, reseller, locked, { ...change, status: ITEM_STATUS.confirmed }, 'confirmed');
    await resellerBookingsRepository(locked.tx).update(locked.order.id, {
      confirmed_at: ctx.now(),
    });
  });
}

/** Moves a hold's deadline to now plus `minutes`. */
export function extendForReseller(
  ctx: OrdersContext,
  reseller: Reseller,
  uuid: string,
  minutes: number,
): Promise<ResellerBookingRead> {
  return underLock(ctx, reseller, uuid, async (locked) => {
    mustBeHeld(ctx, locked);
    await apply(ctx, reseller, locked, { holdMinutes: minutes }, 'hold extended');
  });
}

/** Changes a live booking: another departure or product, other seats, contact, notes. */
export function changeForReseller(
  ctx: OrdersContext,
  reseller: Reseller,
  uuid: string,
  change: Omit<BookingChange, 'status'>,
): Promise<ResellerBookingRead> {
  return underLock(ctx, reseller, uuid, async (locked) => {
    mustBeLive(ctx, locked);
    const { experienceId, start, seats } = change;
    if (experienceId !== undefined || start !== undefined || seats) mustHaveNoneCheckedIn(locked);
    await apply(ctx, reseller, locked, change, 'change');
  });
}

/**
 * Cancels a booking before its departure: its seats back, the reason recorded. A booking
 * that has already ended is answered as it is (a retried cancellation is no error).
 */
export function cancelForReseller(
  ctx: OrdersContext,
  reseller: Reseller,
  uuid: string,
  reason: string | null,
): Promise<ResellerBookingRead> {
  return underLock(ctx, reseller, uuid, async (locked) => {
    const { tx, order, items, item } = locked;
    if (!holdsSeats(item.status)) return;
    if (item.arrival_datetime.getTime() <= ctx.now().getTime())
      refuse('departure_started', 'the departure has started');
    mustHaveNoneCheckedIn(locked);
    const live = items.filter((i) => holdsSeats(i.status));
    const after = items.map((i) =>
      holdsSeats(i.status) ? { ...i, status: ITEM_STATUS.canceled } : i,
    );
    await commitChange(
      ctx,
      tx,
      order,
      items,
      after,
      { id: bookerIdOf(reseller), reason: 'cancelled' },
      { changed: live, added: [], deltas: addSeats(new Map(), seatsHeld(live), -1) },
    );
    await resellerBookingsRepository(tx).update(order.id, {
      ended_at: ctx.now(),
      end_reason: reason,
    });
  });
}
