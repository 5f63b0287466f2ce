/**
 * Quotes (`POST /api/orders/prepare`, and the checkout's): the order as it would be booked
 * now, priced and checked like a booking, with the seats each departure has left (no more
 * than the resources it uses have room for), taking no seats and writing nothing.
 */
import type { Caller, Checkout } from '../../domain/caller.js';
import { eventsFacade, capacityExceeded, departureKey, seatsOpen } from '../events/index.js';
import { resourceFull, resourcesFacade } from '../resources/index.js';
import { localIso } from '../shared/index.js';
import type { BookingInput, PlannedBooking, PlannedItem } from './booking.js';
import { planCheckout, planRequest } from './booking-request.js';
import { lineItemsOf } from './line-items.js';
import type { OrdersContext } from './orders.context.js';
import type { OrderQuoteView } from './orders.schemas.js';

/** A planned booking's quote: the seats of every departure asked, in one query. */
async function quotePlanned(ctx: OrdersContext, planned: PlannedBooking): Promise<OrderQuoteView> {
  const wanted = new Map<string, { item: PlannedItem; quantity: number }>();
  for (const item of planned.items) {
    const key = departureKey(item.experience.id, item.start);
    const entry = wanted.get(key) ?? { item, quantity: 0 };
    entry.quantity += item.quantity;
    wanted.set(key, entry);
  }
  // The seats of every departure asked, in one query whatever the number of items.
  const found = await eventsFacade.seatsAt(
    ctx.db,
    [...new Set(planned.items.map((i) => i.experience.id))],
    planned.items.map((i) => i.start),
  );
  const left = new Map<string, number | null>();
  for (const item of planned.items) {
    const key = departureKey(item.experience.id, item.start);
    const event = found.get(key);
    left.set(key, event ? seatsOpen(event) : item.experience.outingMax);
  }
  for (const [key, { item, quantity }] of wanted) {
    const seatsLeft = left.get(key)!;
    if (seatsLeft !== null && quantity > seatsLeft)
      throw capacityExceeded(item.index, seatsLeft, quantity);
  }
  // The resources the departures use, in one more query (only when some use resources).
  const room = await resourcesFacade.guestsLeft(
    ctx.db,
    [...wanted].flatMap(([key, { item }]) =>
      item.experience.resources.length === 0
        ? []
        : [
            {
              key,
              start: item.start,
              // The event's own window, as the booking's check counts it (its experience's
              // duration may have changed since it was made); the duration before it has one.
              end:
                found.get(key)?.end ??
                new Date(item.start.getTime() + item.experience.duration * 60_000),
              uses: item.experience.resources,
            },
          ],
    ),
  );
  for (const [key, { item, quantity }] of wanted) {
    const limit = room.get(key);
    if (!limit) continue;
    if (quantity > limit.left) throw resourceFull(limit.resource, item.index, limit.left, quantity);
    const seatsLeft = left.get(key)!;
    if (seatsLeft === null || limit.left < seatsLeft) left.set(key, limit.left);
  }
  return {
    object: 'order_quote',
    seller: { id: planned.sellerId },
    amount: planned.amount,
    currency: planned.currency,
    items: planned.items.map((item) => ({
      experience: { id: item.experience.id },
      name: item.experience.name,
      arrival: item.arrival,
      arrivalTime: item.arrivalTime,
      arrivalDatetime: localIso(item.start, item.experience.timezone),
      quantity: item.quantity,
      demographics: item.lines,
      lineItems: lineItemsOf(item),
      price: item.price,
      amount: item.amount,
      status: item.status,
      seatsLeft: left.get(departureKey(item.experience.id, item.start))!,
    })),
  };
}

/** The order as it would be booked now, without taking seats or writing anything. */
export async function quote(
  ctx: OrdersContext,
  caller: Caller,
  input: BookingInput,
): Promise<OrderQuoteView> {
  return quotePlanned(ctx, (await planRequest(ctx, caller, input, true)).planned);
}

/** A guest checkout's quote (a publishable key). */
export async function quoteAtCheckout(
  ctx: OrdersContext,
  checkout: Checkout,
  input: BookingInput,
): Promise<OrderQuoteView> {
  return quotePlanned(ctx, (await planCheckout(ctx, checkout, input, true)).planned);
}
