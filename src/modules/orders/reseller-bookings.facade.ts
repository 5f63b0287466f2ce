/**
 * What the OCTo module may ask of orders: a reseller's bookings, made, changed and read
 * through the orders module's use cases (reseller-reserve, reseller-changes, reseller-reads:
 * the one booking path, the one seat interface). Each call takes what it runs with: the
 * database, where its domain events go, the clock. The resellers module asks one thing: that
 * a revoked credential's holds end with it.
 */
import type { Db } from '../../db/database.js';
import type { Executor, Tx } from '../../db/unit-of-work.js';
import type { Reseller } from '../../domain/caller.js';
import type { EventSink } from '../../outbox/index.js';
import { releaseHeldBy } from './holds.service.js';
import { ordersContext, type OrdersContext } from './orders.context.js';
import type { ResellerBookingsFilter } from './reseller-bookings.repository.js';
import {
  cancelForReseller,
  changeForReseller,
  confirmForReseller,
  extendForReseller,
  type BookingChange,
} from './reseller-changes.service.js';
import { findBooking, listBookings, readBooking } from './reseller-reads.service.js';
import { reserveForReseller, type ReserveInput } from './reseller-reserve.service.js';

export interface ResellerBookingDeps {
  db: Db;
  /** Where `order.*` and seat `event.update` events go, in the change's transaction. */
  domainEvents?: EventSink;
  now?: () => Date;
}

/**
 * A reseller's bookings send no confirmation of ours (reserve's sender says so), so there is
 * no relay to cap.
 */
const NO_RELAY = {
  sentToOthersLastHour: async () => 0,
  toOthersPerHour: Infinity,
  sentToRecipientLastDay: async () => 0,
};

const contextOf = (deps: ResellerBookingDeps): OrdersContext =>
  ordersContext({ relayCap: NO_RELAY, ...deps });

export const resellerBookings = {
  reserve: (deps: ResellerBookingDeps, reseller: Reseller, input: ReserveInput) =>
    reserveForReseller(contextOf(deps), reseller, input),
  confirm: (
    deps: ResellerBookingDeps,
    reseller: Reseller,
    uuid: string,
    change: Parameters<typeof confirmForReseller>[3],
  ) => confirmForReseller(contextOf(deps), reseller, uuid, change),
  extend: (deps: ResellerBookingDeps, reseller: Reseller, uuid: string, minutes: number) =>
    extendForReseller(contextOf(deps), reseller, uuid, minutes),
  change: (
    deps: ResellerBookingDeps,
    reseller: Reseller,
    uuid: string,
    change: Omit<BookingChange, 'status'>,
  ) => changeForReseller(contextOf(deps), reseller, uuid, change),
  cancel: (deps: ResellerBookingDeps, reseller: Reseller, uuid: string, reason: string | null) =>
    cancelForReseller(contextOf(deps), reseller, uuid, reason),
  find: (db: Executor, reseller: Reseller, uuid: string) => findBooking(db, reseller, uuid),
  list: (db: Executor, reseller: Reseller, filter: ResellerBookingsFilter) =>
    listBookings(db, reseller, filter),
  /** An order as its reseller's booking (undefined: not a reseller's), for webhooks. */
  read: (db: Executor, orderId: string) => readBooking(db, orderId),
  /**
   * Ends, in `tx`, every live hold the credential `bookerId` made, its deadline passed or
   * not (the credential is being revoked): the seats back at once, the bookings EXPIRED, as
   * the hold sweeper ends them. How many orders.
   */
  releaseHeldBy: (deps: Omit<ResellerBookingDeps, 'db'>, tx: Tx, bookerId: string) =>
    // Everything runs in `tx`: the revoking transaction's own connection.
    releaseHeldBy(contextOf({ ...deps, db: tx }), tx, bookerId),
};

export type ResellerBookings = typeof resellerBookings;
