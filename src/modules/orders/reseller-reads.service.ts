/**
 * Reading a reseller's bookings: one by its uuid, or a list by the reseller's reference, the
 * order's short code or the local dates its departure is on. A reseller reads only the
 * bookings it made (its booker id), whatever it asks.
 */
import { READ_WIDTH, inTurns } from '../../db/in-turns.js';
import type { Executor } from '../../db/unit-of-work.js';
import { bookerIdOf, type Reseller } from '../../domain/caller.js';
import { ordersFacade } from './orders.facade.js';
import { refuse, readOf, type ResellerBookingRead } from './reseller-bookings.js';
import {
  resellerBookingsRepository,
  type ResellerBookingsFilter,
} from './reseller-bookings.repository.js';

/** The most bookings one list answers (OCTo lists are not paged). */
export const MAX_RESELLER_BOOKINGS = 500;

/** An order that is a reseller's booking, as it reads (three queries). */
export async function readBooking(
  db: Executor,
  orderId: string,
): Promise<ResellerBookingRead | undefined> {
  const repo = resellerBookingsRepository(db);
  const row = await repo.find(orderId);
  const found = row && (await ordersFacade.find(db, orderId));
  if (!row || !found) return undefined;
  return readOf(found.order, row, await repo.guestsOf(orderId));
}

/** The reseller's booking with that uuid; refused as unknown when it has none. */
export async function findBooking(
  db: Executor,
  reseller: Reseller,
  uuid: string,
): Promise<ResellerBookingRead> {
  const row = await resellerBookingsRepository(db).findByUuid(bookerIdOf(reseller), uuid);
  const read = row && (await readBooking(db, row.order_id));
  return read ?? refuse('unknown_booking', `no booking ${uuid}`);
}

export async function listBookings(
  db: Executor,
  reseller: Reseller,
  filter: ResellerBookingsFilter,
): Promise<ResellerBookingRead[]> {
  const ids = await resellerBookingsRepository(db).orderIds(
    bookerIdOf(reseller),
    filter,
    MAX_RESELLER_BOOKINGS,
  );
  const reads = await inTurns(ids, READ_WIDTH, (id) => readBooking(db, id));
  return reads.filter((r): r is ResellerBookingRead => r !== undefined);
}
