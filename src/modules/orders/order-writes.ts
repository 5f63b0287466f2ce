/**
 * Writing orders, shared by the use cases: an item's row from a planned item, the fields an
 * order derives from its items, and `commitChange`, the one way an existing order changes
 * (order changes, an expired hold): seats moved, items updated and added, their guests
 * following their seats, derived fields and an adjustment for the amount's difference, and
 * `order.update` (or `order.cancel`) with its audit.
 */
import { changeTime } from '../../db/creation-clock.js';
import { newId } from '../../db/ids.js';
import type { Tx } from '../../db/unit-of-work.js';
import { fromMinor, minorDigits, toMinor } from '../../domain/money.js';
import { emitChange } from '../../outbox/index.js';
import { eventsFacade, type SeatDelta } from '../events/index.js';
import { iso } from '../shared/index.js';
import { checkAmount, type PlannedItem } from './booking.js';
import { newTicketCode } from './booking-codes.js';
import {
  confirmsFirst,
  readdressesConfirmation,
  sendsConfirmation,
  type Sender,
} from './confirmations.js';
import { applyRevision, reviseGuests } from './guests.js';
import { guestsRepository } from './guests.repository.js';
import { inBookingOrder } from './item-order.js';
import { customerKeepsCheckedIn } from './order-changes.js';
import { ITEM_STATUS, holdsSeats, orderStatusOf } from './item-status.js';
import { emitSeatChanges, type OrdersContext } from './orders.context.js';
import { ordersRepository } from './orders.repository.js';
import { toOrderView, type OrderItemRow, type OrderRow, type OrderView } from './orders.schemas.js';

/** The row of a planned item on its event (a new one, or `id` and ticket kept by a change). */
export const itemRow = (
  item: PlannedItem,
  order: Pick<OrderRow, 'id' | 'seller_id' | 'customer_id'>,
  eventId: string,
  id = newId(),
  ticketCode = newTicketCode(),
): OrderItemRow => ({
  id,
  order_id: order.id,
  seller_id: order.seller_id,
  customer_id: order.customer_id,
  experience_id: item.experience.id,
  event_id: eventId,
  name: item.experience.name,
  arrival: item.arrival,
  arrival_time: item.arrivalTime,
  arrival_datetime: item.start,
  timezone: item.experience.timezone,
  quantity: item.quantity,
  price: item.price,
  amount: item.amount,
  status: item.status,
  ticket_code: ticketCode,
  demographics: item.lines as unknown as OrderItemRow['demographics'],
  // Numbered by inBookingOrder when the order is written.
  position: 0,
});

/** The order's fields that follow from its items; a new hold lasts `holdMs` from `at`. */
export function derived(
  items: readonly OrderItemRow[],
  currency: string,
  holdUntil: Date | null,
  at: Date,
  holdMs: number,
) {
  const live = items.filter((i) => holdsSeats(i.status));
  const digits = minorDigits(currency);
  return {
    status: orderStatusOf(items.map((i) => i.status)),
    arrival: (live.length > 0 ? live : items).map((i) => i.arrival).sort()[0]!,
    amountMinor: live.reduce((sum, i) => sum + toMinor(i.amount, digits), 0n),
    hold_expires_at: live.some((i) => i.status === ITEM_STATUS.hold)
      ? (holdUntil ?? new Date(at.getTime() + holdMs))
      : null,
  };
}

/** What a change does besides its items: seats to move, fields to set, an amount to check. */
export interface ChangeWork {
  changed: readonly OrderItemRow[];
  added: readonly OrderItemRow[];
  deltas: ReadonlyMap<string, SeatDelta>;
  fields?: Partial<OrderRow>;
  expected?: number;
  /** A held order's new deadline (a reseller extending its hold); else it keeps its own. */
  holdUntil?: Date;
  /**
   * Who the change's confirmation email, if it confirms the order's first item, is sent as
   * (confirmations.ts); without it the change sends none (an expired hold, a reseller's).
   */
  confirmAs?: Sender;
  /**
   * A customer's own change: none of `changed` may hold a guest checked in
   * (order-changes.ts, customerKeepsCheckedIn), read with the guests it revises.
   */
  byCustomer?: boolean;
}

/**
 * Writes a change of an order: seats moved, items updated and added, the order's derived
 * fields and an adjustment for the amount's difference, and `order.update` with its audit.
 */
export async function commitChange(
  ctx: OrdersContext,
  tx: Tx,
  order: OrderRow,
  before: readonly OrderItemRow[],
  after: readonly OrderItemRow[],
  actor: { id: string | null; reason: string },
  work: ChangeWork,
): Promise<OrderView> {
  const guests = guestsRepository(tx);
  const live = await guests.liveOf(order.id);
  if (work.byCustomer) customerKeepsCheckedIn(live, new Set(work.changed.map((i) => i.id)));
  const changes = await eventsFacade.seats.move(tx, work.deltas);
  // The creation clock, inside the transaction, never behind the order's own stamp (the
  // order is locked): pollers of updatedAt rely on it (db/creation-clock.ts).
  const stamp = changeTime(order.updated_at);
  const holdUntil = work.holdUntil ?? order.hold_expires_at;
  const facts = derived(after, order.currency, holdUntil, stamp, ctx.holdMs);
  const digits = minorDigits(order.currency);
  const amount = fromMinor(facts.amountMinor, digits);
  checkAmount(amount, order.currency, work.expected);
  const difference = facts.amountMinor - toMinor(order.amount, digits);
  const next: OrderRow = {
    ...order,
    ...work.fields,
    status: facts.status,
    arrival: facts.arrival,
    amount,
    hold_expires_at: facts.hold_expires_at,
    adjustments:
      difference === 0n
        ? order.adjustments
        : [
            ...order.adjustments,
            { amount: fromMinor(difference, digits), reason: actor.reason, createdAt: iso(stamp) },
          ],
    updated_at: stamp,
  };
  const orders = ordersRepository(tx);
  await orders.update(next);
  for (const item of work.changed) {
    await orders.updateItem(after.find((i) => i.id === item.id)!);
  }
  // Kept items where they were, added ones after them (item-order.ts).
  const ordered = inBookingOrder(before, after);
  const added = new Set(work.added.map((i) => i.id));
  if (added.size > 0) await orders.insertItems(ordered.filter((i) => added.has(i.id)));
  // Guests follow their seats: those of changed and added items revised (guests.ts).
  const touched = new Set([...work.changed.map((i) => i.id), ...added]);
  const revision = reviseGuests(
    ordered.filter((i) => touched.has(i.id)),
    live,
    stamp,
  );
  await guests.cancel(revision.canceled, stamp);
  for (const [eventId, ids] of revision.moved) await guests.moveTo(eventId, ids);
  await guests.insert(revision.added);
  const view = toOrderView(next, ordered, applyRevision(live, revision));
  const event = {
    sellerId: order.seller_id,
    actorId: actor.id,
    after: view,
    before: toOrderView(order, before, live),
  };
  if (next.status === 'canceled' && order.status !== 'canceled') {
    await emitChange(ctx.domainEvents, tx, { name: 'order.cancel', ...event });
  } else {
    const sendConfirmation = await sendsConfirmation(ctx, tx, {
      before,
      after,
      recipient: next.customer_email,
      sellerId: order.seller_id,
      sender: work.confirmAs,
    });
    // A write that confirms the first item sends the confirmation to the new address itself
    // (or holds it): asking again as a readdressed one counted and held it twice.
    const readdressConfirmation =
      !confirmsFirst(before, after) &&
      next.customer_email !== order.customer_email &&
      (await readdressesConfirmation(ctx, tx, {
        before: order.customer_email,
        after: next.customer_email,
        sellerId: order.seller_id,
        sender: work.confirmAs,
      }));
    await emitChange(ctx.domainEvents, tx, {
      name: 'order.update',
      ...event,
      hints: { sendConfirmation, readdressConfirmation },
    });
  }
  await emitSeatChanges(ctx, tx, order.seller_id, actor.id, changes);
  return view;
}
