/**
 * What every use case of orders runs with: the database, where its domain events go, the relay
 * caps on confirmations, the hold length and the clock. The use-case files (booking, changes,
 * holds, cancellation, reads) are top-level functions taking this context first;
 * orders.service.ts binds them to one.
 */
import type { Db } from '../../db/database.js';
import { afterCommit, type Tx } from '../../db/unit-of-work.js';
import { seatsReleased, seatsTaken } from '../../metrics/index.js';
import type { Access } from '../../domain/access.js';
import { noEvents, type EventSink } from '../../outbox/index.js';
import type { SeatChange } from '../events/index.js';
import type { OrderRow } from './orders.schemas.js';

/** The relay caps on confirmations to others (docs/booking.md, "Not a relay"). */
export interface RelayCap {
  /** Emails the account caused to addresses other than its own in the last hour. */
  sentToOthersLastHour(tx: Tx, senderId: string, ownEmail: string): Promise<number>;
  /** How many of those a customer account may cause per hour (the relay cap). */
  readonly toOthersPerHour: number;
  /** Confirmations the account or key caused to `recipient` in the last day. */
  sentToRecipientLastDay(tx: Tx, senderId: string, recipient: string): Promise<number>;
  /**
   * The seller's daily budget of confirmations its own bookings send to others. Absent: none
   * (a reseller's bookings confirm nothing).
   */
  readonly perSeller?: SellerBudget;
}

/**
 * A seller's daily budget: what its account, its staff and its publishable keys' bookings
 * may send to addresses other than its accounts' (anyone may sign up as a seller, so the
 * seller is no more accountable than a customer: docs/booking.md, "Not a relay").
 */
export interface SellerBudget {
  readonly perDay: number;
  /**
   * `own` when `recipient` is the address of the seller's account or of one of its staff;
   * else the confirmations to others the seller's bookings queued in the last day, counted
   * under the seller's lock until the transaction ends.
   */
  sentToOthersLastDay(tx: Tx, sellerId: string, recipient: string): Promise<number | 'own'>;
  /**
   * Told, once the booking commits, of each confirmation withheld for the budget (the log:
   * its line is limited per seller by the teller, app-modules.ts).
   */
  withheld?(sellerId: string): void;
}

export interface OrdersServiceDeps {
  db: Db;
  relayCap: RelayCap;
  /** Where `order.*` and seat `event.update` events go, in the change's transaction. */
  domainEvents?: EventSink;
  /** How long a hold (item status 103) keeps its seats unconfirmed. */
  holdMs?: number;
  /** The clock skew the pollers' horizon allows for (db/poll-horizon.ts). */
  pollMarginMs?: number;
  now?: () => Date;
}

export type OrdersContext = Required<OrdersServiceDeps>;

export const ordersContext = (deps: OrdersServiceDeps): OrdersContext => ({
  domainEvents: noEvents,
  holdMs: 15 * 60_000,
  pollMarginMs: 1000,
  now: () => new Date(),
  ...deps,
});

/** Customers see the orders they booked; sellers and their reservation staff, the seller's. */
export const maySee = (
  access: Access,
  order: Pick<OrderRow, 'customer_id' | 'seller_id'>,
): boolean => order.customer_id === access.caller.id || access.can('orders', order.seller_id);

/** Each event whose seats changed is an `event.update`. */
export async function emitSeatChanges(
  ctx: OrdersContext,
  tx: Tx,
  sellerId: string,
  actorId: string | null,
  changes: readonly SeatChange[],
): Promise<void> {
  for (const change of changes) {
    await ctx.domainEvents.emit(tx, { name: 'event.update', sellerId, actorId, ...change });
    countSeats(tx, change);
  }
}

/** Seats taken or given back, counted once the transaction that moved them commits. */
function countSeats(tx: Tx, change: SeatChange): void {
  const before = (change.audit.quantity?.old as { reserved: number } | undefined)?.reserved;
  if (before === undefined) return;
  const delta = change.object.quantity.reserved - before;
  afterCommit(tx, () => (delta > 0 ? seatsTaken.inc(delta) : seatsReleased.inc(-delta)));
}
