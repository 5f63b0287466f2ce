/**
 * Cancelling an order (`POST /api/orders/{id}/cancel`: the customer who booked, before any
 * of its departures has started and before any of its guests has checked in, or the seller
 * or its reservation staff): the order and its items canceled, every live seat given back
 * through the seat interface, its guests canceled with their seats (their check-ins undone),
 * `order.cancel` and the seats' `event.update`s.
 */
import { creationTime } from '../../db/creation-clock.js';
import { inTransaction } from '../../db/unit-of-work.js';
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { DomainError, notFound } from '../../domain/errors.js';
import { emitChange } from '../../outbox/index.js';
import { guestsRepository } from './guests.repository.js';
import { holdsSeats } from './item-status.js';
import { addSeats, customerKeepsCheckedIn, customerMayChange, seatsHeld } from './order-changes.js';
import { emitSeatChanges, maySee, type OrdersContext } from './orders.context.js';
import { ordersRepository } from './orders.repository.js';
import { toOrderView, type OrderView } from './orders.schemas.js';
import { eventsFacade } from '../events/index.js';

export async function cancel(ctx: OrdersContext, caller: Caller, id: string): Promise<OrderView> {
  const access = accessOf(caller);
  return inTransaction(ctx.db, async (tx) => {
    const orders = ordersRepository(tx);
    const order = await orders.lock(id);
    if (!order || !maySee(access, order)) throw notFound(`Order ${id}`);
    if (order.status === 'canceled')
      throw new DomainError('already_canceled', `Order ${id} is already canceled.`);
    const items = (await orders.itemsOf([id])).get(id) ?? [];
    const live = items.filter((i) => holdsSeats(i.status));
    const guests = guestsRepository(tx);
    const guestsBefore = await guests.liveOf(id);
    // The customer's own rule for any change (a cancel drops every item): not once a
    // departure has started, nor once a guest has checked in (both: its guests may be on
    // board, and the seats would be resold under them); the seller's staff may.
    if (!access.can('orders', order.seller_id)) {
      customerMayChange(items, ctx.now());
      customerKeepsCheckedIn(guestsBefore, new Set(items.map((i) => i.id)));
    }
    await orders.markCanceled(id);
    await guests.cancelOfOrder(id, creationTime());
    const changes = await eventsFacade.seats.move(tx, addSeats(new Map(), seatsHeld(live), -1));
    const canceled = (await orders.findById(id))!;
    const view = toOrderView(canceled, (await orders.itemsOf([id])).get(id) ?? [], []);
    await emitChange(ctx.domainEvents, tx, {
      name: 'order.cancel',
      sellerId: order.seller_id,
      actorId: caller.id,
      after: view,
      before: toOrderView(order, items, guestsBefore),
    });
    await emitSeatChanges(ctx, tx, order.seller_id, caller.id, changes);
    return view;
  });
}
