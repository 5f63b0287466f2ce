/**
 * Holds (item status 103) that outlive their deadline: their items canceled and their seats
 * given back, an order at a time, each in its own transaction; the hold sweeper
 * (hold-sweeper.ts) calls `releaseExpiredHolds` on every instance, and each order is locked
 * and its deadline checked again, so a hold is released once. A held item with a guest
 * checked in is never released: its guests are on board, and their seats must not be
 * resold. The dock checks in no guest of a hold, but staff may set a checked-in guest's item
 * back to 103; such an item becomes pending (100: awaiting the seller, no deadline) instead.
 * The holds of a revoked reseller credential end the same way at once, in the revoking
 * transaction (`releaseHeldBy`): nobody could confirm them any more, and they would keep
 * their seats from sale until their deadline.
 */
import { inTransaction, type Tx } from '../../db/unit-of-work.js';
import { holdsExpired } from '../../metrics/index.js';
import { guestsRepository } from './guests.repository.js';
import { ITEM_STATUS } from './item-status.js';
import { addSeats, seatsHeld } from './order-changes.js';
import { commitChange } from './order-writes.js';
import type { OrdersContext } from './orders.context.js';
import { ordersRepository } from './orders.repository.js';
import type { OrderRow } from './orders.schemas.js';
import { resellerBookingsRepository } from './reseller-bookings.repository.js';

/**
 * Ends every unconfirmed hold of a locked order: its held items canceled, their seats back
 * (those with a guest checked in pending instead, seats kept), `reason` its adjustment's.
 */
async function release(ctx: OrdersContext, tx: Tx, order: OrderRow, reason: string): Promise<void> {
  const items = (await ordersRepository(tx).itemsOf([order.id])).get(order.id) ?? [];
  const aboard = new Set(
    (await guestsRepository(tx).liveOf(order.id))
      .filter((g) => g.status === 'arrived')
      .map((g) => g.item_id),
  );
  const held = items.filter((i) => i.status === ITEM_STATUS.hold);
  const released = held.filter((i) => !aboard.has(i.id));
  const after = items.map((i) =>
    i.status !== ITEM_STATUS.hold
      ? i
      : { ...i, status: aboard.has(i.id) ? ITEM_STATUS.pending : ITEM_STATUS.canceled },
  );
  await commitChange(
    ctx,
    tx,
    order,
    items,
    after,
    { id: null, reason },
    { changed: held, added: [], deltas: addSeats(new Map(), seatsHeld(released), -1) },
  );
  // A reseller's booking ended by its deadline (or its credential's end) shows EXPIRED, not
  // CANCELLED (OCTo); one whose guests are on board has not ended.
  if (released.length === held.length)
    await resellerBookingsRepository(tx).markExpired(order.id, ctx.now());
}

/** Releases an order's holds if its deadline passed (checked again under its lock). */
async function releaseIfDue(ctx: OrdersContext, tx: Tx, orderId: string): Promise<boolean> {
  const order = await ordersRepository(tx).lock(orderId);
  if (!order?.hold_expires_at || order.hold_expires_at.getTime() > ctx.now().getTime())
    return false;
  await release(ctx, tx, order, 'hold expired');
  return true;
}

/** Releases the holds whose deadline passed, `limit` orders at most: how many it released. */
export async function releaseExpiredHolds(ctx: OrdersContext, limit = 100): Promise<number> {
  const due = await ordersRepository(ctx.db).holdsDue(ctx.now(), limit);
  let released = 0;
  for (const orderId of due) {
    if (await inTransaction(ctx.db, (tx) => releaseIfDue(ctx, tx, orderId))) {
      released++;
      holdsExpired.inc();
    }
  }
  return released;
}

/**
 * Releases, in `tx`, every live hold a reseller credential made, deadline or not (it is being
 * revoked): how many orders. The orders are locked first, in id order, so a change of one of
 * them under way (a confirmation that came first) ends before any seat moves; a hold it
 * confirmed is then no longer held, and stays.
 */
export async function releaseHeldBy(ctx: OrdersContext, tx: Tx, bookerId: string): Promise<number> {
  const orders = ordersRepository(tx);
  const locked: OrderRow[] = [];
  for (const orderId of await resellerBookingsRepository(tx).heldBy(bookerId)) {
    const order = await orders.lock(orderId);
    if (order?.hold_expires_at) locked.push(order);
  }
  for (const order of locked) await release(ctx, tx, order, 'reseller credential revoked');
  return locked.length;
}
