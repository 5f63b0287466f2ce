/**
 * Booking (`POST /api/orders`, and the checkout's): a checked plan written in one
 * transaction, every item or none: the seats taken through the events module's seat
 * interface, then the order, its items and their guests (one per seat), `order.create` (the
 * confirmation email derives from it), the seats' `event.update`s and the Idempotency-Key
 * answer.
 */
import { creationTime } from '../../db/creation-clock.js';
import { isUniqueViolation } from '../../db/errors.js';
import { newId } from '../../db/ids.js';
import { inBatchedTransaction, type BatchTx } from '../../db/write-batch.js';
import { accessOf } from '../../domain/access.js';
import { isAdmin, type Caller, type Checkout } from '../../domain/caller.js';
import { DomainError } from '../../domain/errors.js';
import { bookingOrders } from '../../metrics/index.js';
import { eventsFacade, departureKey } from '../events/index.js';
import type { Recorder } from '../idempotency/index.js';
import type { BookingInput, PlannedBooking, PlannedItem } from './booking.js';
import { SHORT_CODE_TRIES, newShortCode } from './booking-codes.js';
import { sendsConfirmation, type Sender } from './confirmations.js';
import { guestsOf } from './guests.js';
import { guestsRepository } from './guests.repository.js';
import { planCheckout, planRequest } from './booking-request.js';
import { inBookingOrder } from './item-order.js';
import { emitSeatChanges, type OrdersContext } from './orders.context.js';
import { ordersRepository } from './orders.repository.js';
import { toOrderView, type OrderRow, type OrderView } from './orders.schemas.js';
import { derived, itemRow } from './order-writes.js';

/**
 * Writes a checked booking: events found or made, seats taken, order and email stored (the
 * order's, its items', its guests', its events' and its email's rows deferred to the batch's
 * statement).
 */
async function write(
  ctx: OrdersContext,
  tx: BatchTx,
  plan: PlannedBooking,
  sender: Sender,
): Promise<OrderView> {
  const { eventAt, changes } = await eventsFacade.seats.take(
    tx,
    plan.sellerId,
    plan.items.map((item) => ({
      item: item.index,
      experience: item.experience,
      start: item.start,
      quantity: item.quantity,
    })),
  );
  const eventOf = (item: PlannedItem) => eventAt.get(departureKey(item.experience.id, item.start))!;
  // The creation clock, inside the transaction (db/creation-clock.ts).
  const stamp = creationTime();
  const owner = { id: newId(), seller_id: plan.sellerId, customer_id: plan.customerId };
  const items = inBookingOrder(
    [],
    plan.items.map((item) => itemRow(item, owner, eventOf(item))),
  );
  const facts = derived(items, plan.currency, null, stamp, ctx.holdMs);
  const order: OrderRow = {
    ...owner,
    customer_name: plan.customerName,
    customer_email: plan.customerEmail,
    phone: plan.phone,
    source: plan.source,
    status: facts.status,
    short_code: newShortCode(),
    arrival: facts.arrival,
    amount: plan.amount,
    currency: plan.currency,
    payment_method: plan.paymentMethod,
    notes: plan.notes,
    adjustments: [],
    hold_expires_at: facts.hold_expires_at,
    created_at: stamp,
    updated_at: stamp,
  };
  const orders = ordersRepository(tx);
  await orders.insert(order);
  await orders.insertItems(items);
  // A guest per seat, in the same statement (issue 29).
  const guests = guestsOf(items, stamp);
  await guestsRepository(tx).insert(guests);
  const view = toOrderView(order, items, guests);
  const sendConfirmation = await sendsConfirmation(ctx, tx, {
    before: [],
    after: items,
    recipient: plan.customerEmail,
    sellerId: plan.sellerId,
    sender,
  });
  await ctx.domainEvents.emit(tx, {
    name: 'order.create',
    sellerId: plan.sellerId,
    actorId: sender.id,
    object: view,
    hints: { sendConfirmation },
  });
  await emitSeatChanges(ctx, tx, plan.sellerId, sender.id, changes);
  return view;
}

/**
 * Books a checked plan in one transaction: the seats taken, then the order, its items,
 * its domain events, its email and its Idempotency-Key answer sent as one statement
 * (db/write-batch.ts). A short code the seller already has (about one draw in 10^11 for
 * a seller with a million orders) fails that statement; the booking is then made again
 * from the start with another code, a few times at most. `first` runs in the transaction
 * before any seat is taken (a reseller's reserve locks its credential there); the API's
 * bookings pass none, and pay no statement for it.
 */
export async function commitBooking(
  ctx: OrdersContext,
  planned: PlannedBooking,
  sender: Sender,
  record: Recorder,
  first?: (batch: BatchTx) => Promise<void>,
): Promise<OrderView> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await inBatchedTransaction(ctx.db, async (batch) => {
        if (first) await first(batch);
        const booked = await write(ctx, batch, planned, sender);
        await record(batch, { status: 201, body: booked });
        return booked;
      });
    } catch (error) {
      if (attempt >= SHORT_CODE_TRIES || !isUniqueViolation(error, 'orders_short_code'))
        throw error;
    }
  }
}

/**
 * A booking's outcome for `booking_orders_total`: `booked`, or the code it was refused with
 * (capacity_exceeded, not_scheduled ...). Replays of an Idempotency-Key never get here.
 */
async function counted(booking: () => Promise<OrderView>): Promise<OrderView> {
  try {
    const view = await booking();
    bookingOrders.inc({ result: 'booked' });
    return view;
  } catch (error) {
    bookingOrders.inc({ result: error instanceof DomainError ? error.code : 'error' });
    throw error;
  }
}

/** A booking by an account: for itself, or by the seller's staff for a customer. */
export function book(
  ctx: OrdersContext,
  caller: Caller,
  input: BookingInput,
  record: Recorder,
): Promise<OrderView> {
  return counted(async () => {
    const { planned, account, sellerId } = await planRequest(ctx, caller, input);
    const sender = {
      id: caller.id,
      email: account.email,
      capped: !(sellerId && accessOf(caller).can('orders', sellerId)),
      operator: isAdmin(caller),
    };
    return commitBooking(ctx, planned, sender, record);
  });
}

/**
 * A guest checkout's booking (a publishable key): no customer account, the customer's
 * name, email and phone required, `source: "checkout"`. Its confirmation is not held to
 * a customer's hourly cap on mail to others (the guest writes its own address) but to a
 * few a day to one address (confirmations.ts, docs/security.md).
 */
export function bookAtCheckout(
  ctx: OrdersContext,
  checkout: Checkout,
  input: BookingInput,
  record: Recorder,
): Promise<OrderView> {
  return counted(async () => {
    const { planned } = await planCheckout(ctx, checkout, input, false);
    const sender = { id: checkout.keyId, email: '', capped: false, guest: true };
    return commitBooking(ctx, planned, sender, record);
  });
}
