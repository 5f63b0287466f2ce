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

/**
 * The most unit items (guests) one list answers. Each is about 600 bytes of OCTo's JSON with
 * its ticket: 500 bookings of 200 were 59 MB and 7 s, enough for a few such requests to take
 * a 128 MB heap down. A list past it is refused before any booking is read, so the
 * reseller asks for fewer days rather than silently missing bookings (OCTo lists have no
 * pages); about 1.2 MB at most.
 */
export const MAX_LISTED_UNIT_ITEMS = 2000;

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
  const found = await resellerBookingsRepository(db).orderIds(
    bookerIdOf(reseller),
    filter,
    MAX_RESELLER_BOOKINGS,
  );
  const unitItems = found.reduce((sum, booking) => sum + booking.guests, 0);
  if (unitItems > MAX_LISTED_UNIT_ITEMS)
    refuse(
      'too_many_to_list',
      `the bookings asked for hold ${unitItems} unit items, more than the ${MAX_LISTED_UNIT_ITEMS} one answer lists: ask for fewer dates`,
    );
  const reads = await inTurns(found, READ_WIDTH, ({ orderId }) => readBooking(db, orderId));
  return reads.filter((r): r is ResellerBookingRead => r !== undefined);
}
