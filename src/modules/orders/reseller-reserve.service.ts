/**
 * A reseller's reservation (OCTo's reserve): an order of one item booked through the one
 * booking path (commitBooking: the seats taken through the events module's seat interface,
 * the order, its items and guests, `order.create`), held (item status 103) for the hold
 * length the reseller asks, its source the reseller's name; what the reseller records beside
 * it written in the same statement. Its uuid is the reseller's idempotency: the same uuid
 * and the same request is the same booking, another request with it is refused, also when
 * copies are sent at once (retries of a request whose answer was slow). A credential revoked
 * while its reserve was under way never keeps a hold (`credentialLive`).
 */
import { isUniqueViolation } from '../../db/errors.js';
import type { Executor, Tx } from '../../db/unit-of-work.js';
import { bookerIdOf, type Reseller } from '../../domain/caller.js';
import { DomainError } from '../../domain/errors.js';
import { experiencesFacade, type BookableExperience } from '../experiences/index.js';
import { instantToLocal } from '../schedules/index.js';
import type { Outcome } from '../idempotency/index.js';
import { planItems, totalOf, type BookingItemInput, type PlannedBooking } from './booking.js';
import { openedByHand } from './booking-request.js';
import { commitBooking } from './booking.service.js';
import { ITEM_STATUS } from './item-status.js';
import type { OrdersContext } from './orders.context.js';
import type { OrderView } from './orders.schemas.js';
import {
  refuse,
  ResellerRefusal,
  seatRows,
  type ContactGiven,
  type ResellerBookingRead,
  type SeatAsked,
} from './reseller-bookings.js';
import { resellerBookingsRepository } from './reseller-bookings.repository.js';
import { readBooking } from './reseller-reads.service.js';

export interface ReserveInput {
  uuid: string;
  /** SHA-256 of the request as sent (canonical JSON): a repeat must send the same. */
  requestDigest: Buffer;
  experienceId: string;
  start: Date;
  seats: readonly SeatAsked[];
  holdMinutes: number;
  resellerReference: string | null;
  contact: ContactGiven | null;
  notes: string | null;
}

/** An item of `seats` at `start`: guest types in the experience's order, or a plain count. */
export function itemAt(
  experience: BookableExperience,
  start: Date,
  seats: readonly SeatAsked[],
  status: number,
): BookingItemInput {
  const { date, hhmm } = instantToLocal(start, experience.timezone);
  const typed = experience.demographics
    .map((d) => ({
      demographic: { id: d.id },
      quantity: seats.filter((s) => s.demographicId === d.id).length,
    }))
    .filter((line) => line.quantity > 0);
  return {
    experience: { id: experience.id },
    arrival: date,
    arrivalTime: hhmm,
    status,
    ...(typed.length > 0 ? { demographics: typed } : { quantity: seats.length }),
  };
}

/** The experience a reseller books: its seller's, visible; else as unknown. */
export async function bookable(
  db: Executor,
  reseller: Reseller,
  experienceId: string,
): Promise<BookableExperience> {
  const experience = await experiencesFacade.find(db, experienceId);
  if (!experience || !experience.visible || experience.sellerId !== reseller.sellerId)
    throw new DomainError('not_found', `Experience ${experienceId} was not found.`);
  return experience;
}

/** A repeated reserve: the same booking when the same request, else refused. */
async function again(
  ctx: OrdersContext,
  reseller: Reseller,
  input: ReserveInput,
): Promise<ResellerBookingRead | undefined> {
  const row = await resellerBookingsRepository(ctx.db).findByUuid(bookerIdOf(reseller), input.uuid);
  if (!row) return undefined;
  if (!row.request_digest.equals(input.requestDigest))
    refuse('uuid_reused', `uuid ${input.uuid} was used for another booking`);
  return readBooking(ctx.db, row.order_id);
}

/**
 * A credential's reserve, first in its booking transaction (before any seat is locked, as a
 * revocation locks the credential before the seats it gives back): the credential locked
 * and still live, else refused as revoked. The reserve was authenticated before its
 * transaction, possibly from the caller cache; without this, one revoked meanwhile would
 * commit its hold after the revocation released the credential's holds, keeping its seats
 * from sale for up to 24 hours. With it, a revocation waits for the reserves under way and
 * then releases their holds too (`releaseHeldBy`), or a reserve waits for the revocation
 * and is refused. The seller's own key (no credential) has nothing to lock.
 */
const credentialLive = (reseller: Reseller) => {
  const { resellerId } = reseller;
  if (resellerId === null) return undefined;
  return async (tx: Tx): Promise<void> => {
    if (!(await resellerBookingsRepository(tx).lockLiveCredential(resellerId)))
      refuse('credential_revoked', 'the credential was revoked');
  };
};

/** A reserve refused (sold out, the uuid taken, the departure started...), not failed. */
const isRefusal = (error: unknown): boolean =>
  error instanceof DomainError ||
  error instanceof ResellerRefusal ||
  isUniqueViolation(error, 'reseller_bookings_uuid');

/**
 * Reserves, or answers a repeat as the booking it repeats. Copies of one reserve sent at once
 * all pass the first look-up; the first to commit books, and each other is refused on the
 * way: by the uuid's unique index, or, when the departure had room for one copy only, by the
 * seats (sold out), before its own uuid is written. Either refusal comes only once the
 * booking that caused it has committed (its seats and its uuid are written in one statement,
 * and another transaction's seats are waited for, never seen uncommitted), so a copy refused
 * looks again and answers as the repeat it is (or INVALID_BOOKING_UUID for another request):
 * never "sold out" for a booking the reseller holds. This costs the booking nothing: only a
 * refusal looks again.
 */
export async function reserveForReseller(
  ctx: OrdersContext,
  reseller: Reseller,
  input: ReserveInput,
): Promise<ResellerBookingRead> {
  const repeated = await again(ctx, reseller, input);
  if (repeated) return repeated;
  try {
    return await reserveNew(ctx, reseller, input);
  } catch (error) {
    if (!isRefusal(error)) throw error;
    const booked = await again(ctx, reseller, input);
    if (booked) return booked;
    throw error;
  }
}

/** A reserve whose uuid was not yet used: the booking made, or the refusal. */
async function reserveNew(
  ctx: OrdersContext,
  reseller: Reseller,
  input: ReserveInput,
): Promise<ResellerBookingRead> {
  const experience = await bookable(ctx.db, reseller, input.experienceId);
  if (input.start.getTime() <= ctx.now().getTime())
    refuse('departure_started', 'the departure has started');
  const item = itemAt(experience, input.start, input.seats, ITEM_STATUS.hold);
  const scheduling = { experiences: new Map([[experience.id, experience]]) };
  const items = planItems(
    [item],
    {
      ...scheduling,
      openedByHand: await openedByHand(ctx, ctx.db, [item], scheduling),
      now: ctx.now(),
    },
    true,
    ITEM_STATUS.hold,
  );
  const plan: PlannedBooking = {
    sellerId: experience.sellerId,
    customerId: null,
    // Resellers rarely know the guest at reserve: the name comes with the confirmation.
    customerName: input.contact?.name ?? '',
    customerEmail: input.contact?.email ?? null,
    phone: input.contact?.phone ?? null,
    source: reseller.name,
    notes: input.notes ? [{ text: input.notes }] : [],
    paymentMethod: null,
    currency: experience.currency,
    items,
    amount: totalOf(items, experience.currency, undefined),
  };
  const facts = async (batch: Tx, outcome: Outcome) => {
    const order = outcome.body as OrderView;
    const repo = resellerBookingsRepository(batch);
    await repo.insert({
      order_id: order.id,
      seller_id: experience.sellerId,
      booker_id: bookerIdOf(reseller),
      uuid: input.uuid,
      request_digest: input.requestDigest,
      reseller_reference: input.resellerReference,
      contact: input.contact?.sent ?? null,
      confirmed_at: null,
      ended_at: null,
      end_reason: null,
    });
    const guests = order.items[0]!.guests.map((g) => ({
      id: g.id,
      demographicId: g.demographic?.id ?? null,
    }));
    await repo.insertSeats(seatRows(order.id, guests, input.seats));
  };
  const hold = { ...ctx, holdMs: input.holdMinutes * 60_000 };
  const sender = { id: bookerIdOf(reseller), email: '', capped: false, confirms: false };
  const order = await commitBooking(hold, plan, sender, facts, credentialLive(reseller));
  return (await readBooking(ctx.db, order.id))!;
}
