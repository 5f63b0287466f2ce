/**
 * A booking request made ready to check: Xola's `lineItems` read as guest counts, the
 * experiences it names read once, the customer account it may attach, and the departures
 * opened by hand among those no schedule offers. `planBooking` (booking.ts, pure) then
 * checks and prices it; bookings and quotes both start here.
 */
import type { Executor } from '../../db/unit-of-work.js';
import { accessOf } from '../../domain/access.js';
import type { Caller, Checkout } from '../../domain/caller.js';
import { DomainError } from '../../domain/errors.js';
import { delegatesFacade } from '../delegates/index.js';
import { usersFacade as users, type Account } from '../users/index.js';
import {
  itemError,
  planBooking,
  unscheduled,
  type BookingContext,
  type BookingInput,
  type BookingItemInput,
} from './booking.js';
import { readLineItems } from './line-items.js';
import type { OrdersContext } from './orders.context.js';
import { ordersRepository } from './orders.repository.js';
import { MAX_GUEST_ORDER_SEATS } from './orders.rules.js';
import { eventsFacade } from '../events/index.js';
import { experiencesFacade } from '../experiences/index.js';

/**
 * The account a booking may name as its customer: the caller itself, or one the seller
 * already knows (it booked with the seller before, or is its delegate by id).
 */
async function attachable(
  ctx: OrdersContext,
  customerId: string,
  caller: Caller,
  sellerId: string | undefined,
) {
  const { db } = ctx;
  if (customerId === caller.id) return users.find(db, customerId);
  if (!sellerId) return undefined;
  const known =
    (await ordersRepository(db).hasCustomerAtSeller(customerId, sellerId)) ||
    (await delegatesFacade.isKnownDelegate(db, sellerId, customerId));
  return known ? users.find(db, customerId) : undefined;
}

/**
 * Of the departures the items ask for that no schedule offers, those opened by hand: one
 * query, and only when an item asks for such a departure (a booking on the schedule
 * costs nothing more).
 */
export async function openedByHand(
  ctx: OrdersContext,
  executor: Executor,
  items: readonly BookingItemInput[],
  scheduling: Pick<BookingContext, 'experiences'>,
): Promise<Set<string>> {
  const wanted = unscheduled(items, scheduling);
  if (wanted.length === 0) return new Set();
  return eventsFacade.openedByHand(
    executor,
    wanted.map((w) => w.experienceId),
    wanted.map((w) => w.start),
  );
}

/** Plans a booking request: the caller, the experiences, the customer it may attach. */
export async function planRequest(
  ctx: OrdersContext,
  caller: Caller,
  request: BookingInput,
  quoting = false,
  guest = false,
) {
  const input = {
    ...request,
    items: request.items.map((item, i) => readLineItems(item, `items.${i}`)),
  };
  const ids = [...new Set(input.items.map((i) => i.experience.id))];
  // The caller is the account as authenticated (its cache is emptied on every change to
  // it), so it is not read again.
  const account: Account = caller;
  const rows = await experiencesFacade.findMany(ctx.db, ids);
  const sellerId = rows.find((r) => r.id === input.items[0]?.experience.id)?.sellerId;
  const customer = input.customer && (await attachable(ctx, input.customer.id, caller, sellerId));
  const scheduling = { experiences: new Map(rows.map((e) => [e.id, e])) };
  const planned = planBooking(input, {
    ...scheduling,
    access: accessOf(caller),
    caller: account,
    customer,
    openedByHand: await openedByHand(ctx, ctx.db, input.items, scheduling),
    now: ctx.now(),
    quoting,
    guest,
  });
  return { planned, account, sellerId };
}

/**
 * Plans a guest checkout (a publishable key): as a caller with no account and no rights,
 * at the key's seller only (another seller's experience does not exist for the key).
 */
export async function planCheckout(
  ctx: OrdersContext,
  checkout: Checkout,
  input: BookingInput,
  quoting: boolean,
) {
  const guest: Caller = {
    id: checkout.keyId,
    name: '',
    email: '',
    roles: [],
    apiVersion: '',
    delegations: new Map(),
  };
  const planned = await planRequest(ctx, guest, input, quoting, true);
  // The items share one seller (planBooking checked): another one's do not exist here.
  if (planned.sellerId !== checkout.sellerId) {
    throw new DomainError(
      'not_found',
      `Experience ${input.items[0]?.experience.id} was not found.`,
      {
        errors: [{ in: 'body', name: 'items.0.experience.id', detail: 'no such experience' }],
      },
    );
  }
  const { items } = planned.planned;
  const seats = items.reduce((sum, item) => sum + item.quantity, 0);
  if (seats > MAX_GUEST_ORDER_SEATS) {
    throw itemError(
      items.at(-1)!.index,
      'quantity',
      `a guest checkout books at most ${MAX_GUEST_ORDER_SEATS} seats (this one would hold ${seats}); ask the seller for a larger group`,
    );
  }
  return planned;
}
