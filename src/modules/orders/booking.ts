/**
 * Checking a booking request before anything is written: who books for whom, which
 * experiences, whether each arrival is a scheduled departure and the group size is allowed,
 * what each item costs and the status it is booked in. Produces the priced items to write
 * (or to quote), or throws the 4xx the client should see. Changing an order plans its new
 * items with the same `planItems`.
 */
import type { Access } from '../../domain/access.js';
import { DomainError, forbidden, invalid, notFound } from '../../domain/errors.js';
import { fromMinor, minorDigits } from '../../domain/money.js';
import { departureKey } from '../events/index.js';
import type { BookableExperience } from '../experiences/index.js';
import { isDate, isHhmm, isScheduled, localToInstant, priceDeltaOf } from '../schedules/index.js';
import type { Account } from '../users/index.js';
import { ITEM_STATUS, STAFF_STATUSES } from './item-status.js';
import type { CreateOrderInput } from './orders.schemas.js';
import { MAX_ORDER_SEATS, groupSizeError } from './orders.rules.js';
import { priceItem, type DemographicInput, type DemographicLine } from './pricing.js';

export type BookingInput = CreateOrderInput;

export interface BookingItemInput {
  experience: { id: string };
  arrival: string;
  arrivalTime: number;
  quantity?: number;
  demographics?: DemographicInput[];
  status?: number;
}

export interface PlannedItem {
  index: number;
  experience: BookableExperience;
  arrival: string;
  arrivalTime: number;
  start: Date;
  quantity: number;
  price: number;
  amount: number;
  amountMinor: bigint;
  lines: DemographicLine[];
  status: number;
}

export interface PlannedBooking {
  sellerId: string;
  customerId: string | null;
  customerName: string;
  customerEmail: string | null;
  phone: string | null;
  source: string | null;
  notes: { text: string }[];
  paymentMethod: string | null;
  currency: string;
  items: PlannedItem[];
  amount: number;
}

export interface BookingContext {
  access: Access;
  /** The caller's account (defaults for a customer booking for itself). */
  caller: Account;
  experiences: ReadonlyMap<string, BookableExperience>;
  /**
   * The customer account named in the request, when the caller may attach it: itself, or an
   * account that booked with the seller before or is its delegate by id. Undefined
   * otherwise, which answers exactly as an unknown id does.
   */
  customer: Account | undefined;
  /**
   * Departures opened by hand (events with `manual: true`) among those the schedules do not
   * offer, keyed by `departureKey`: bookable too.
   */
  openedByHand?: ReadonlySet<string>;
  now: Date;
  /** A quote prices the items: who the customer is may still be unknown. */
  quoting?: boolean;
  /**
   * A guest checkout (a publishable key): no account to book for, so the customer's name,
   * email and phone are required, and the order's source is `checkout`.
   */
  guest?: boolean;
}

/**
 * The departures items ask for that the schedules do not offer (well-formed ones of known
 * experiences): only an event opened by hand can make them bookable, so only these are
 * looked up.
 */
export function unscheduled(
  items: readonly BookingItemInput[],
  ctx: Pick<BookingContext, 'experiences'>,
): { experienceId: string; start: Date }[] {
  return items.flatMap((item) => {
    const experience = ctx.experiences.get(item.experience.id);
    if (!experience || !isDate(item.arrival) || !isHhmm(item.arrivalTime)) return [];
    if (isScheduled(experience.schedules, item.arrival, item.arrivalTime)) return [];
    const start = localToInstant(item.arrival, item.arrivalTime, experience.timezone);
    return start ? [{ experienceId: experience.id, start }] : [];
  });
}

/** One departure of an experience, as the group-size rules group items. */
export const departureOf = (i: {
  experience: { id: string };
  arrival: string;
  arrivalTime: number;
}): string => `${i.experience.id} ${i.arrival} ${i.arrivalTime}`;

export const itemError = (index: number, field: string, detail: string) =>
  invalid('body', `items.${index}.${field}`, detail);

/** The seller the items are of, and whether the caller is its staff (404 for what it may not see). */
export function sellerOf(
  items: readonly BookingItemInput[],
  ctx: Pick<BookingContext, 'access' | 'experiences'>,
): { sellerId: string; currency: string; staff: boolean } {
  const first = ctx.experiences.get(items[0]!.experience.id);
  // Experiences the caller may not see do not exist, as far as it is concerned.
  const staffOf = new Map<string, boolean>();
  for (const [index, item] of items.entries()) {
    const experience = ctx.experiences.get(item.experience.id);
    const staff = experience
      ? (staffOf.get(experience.sellerId) ?? ctx.access.can('orders', experience.sellerId))
      : false;
    if (experience) staffOf.set(experience.sellerId, staff);
    if (!experience || (!experience.visible && !staff)) {
      throw new DomainError('not_found', `Experience ${item.experience.id} was not found.`, {
        errors: [
          { in: 'body', name: `items.${index}.experience.id`, detail: 'no such experience' },
        ],
      });
    }
    if (experience.sellerId !== first!.sellerId)
      throw itemError(index, 'experience.id', 'all items of an order must belong to one seller');
    if (experience.currency !== first!.currency)
      throw itemError(index, 'experience.id', 'all items of an order must share one currency');
  }
  return {
    sellerId: first!.sellerId,
    currency: first!.currency,
    staff: staffOf.get(first!.sellerId) ?? false,
  };
}

/**
 * Prices and checks each item: a real scheduled departure, not started (for customers), a
 * group size the experience takes (per departure, over every item booking it), a status the
 * caller may set (`defaultStatus` otherwise). A change plans only the items it moves or
 * adds: `at` gives their positions in the request (for errors), `statusKept` those whose
 * status is the one they already had (not a status the caller sets), and `keptSeats` the
 * live seats of the items it keeps as they are, per `departureOf`, which count towards the
 * group size of a departure as much as the planned ones.
 */
export function planItems(
  items: readonly BookingItemInput[],
  ctx: Pick<BookingContext, 'experiences' | 'openedByHand' | 'now'>,
  staff: boolean,
  defaultStatus: number,
  at: readonly number[] = items.map((_, i) => i),
  statusKept: readonly boolean[] = [],
  keptSeats: ReadonlyMap<string, number> = new Map(),
): PlannedItem[] {
  const priced = items.map((item, i) => {
    const experience = ctx.experiences.get(item.experience.id)!;
    const delta = priceDeltaOf(experience.schedules, item.arrival, item.arrivalTime);
    return priceItem(experience, item, `items.${at[i]}`, delta);
  });
  let seatsInOrder = priced.reduce((sum, { quantity }) => sum + quantity, 0);
  for (const seats of keptSeats.values()) seatsInOrder += seats;
  if (items.length > 0 && seatsInOrder > MAX_ORDER_SEATS)
    throw itemError(
      at[items.length - 1]!,
      'quantity',
      `an order holds at most ${MAX_ORDER_SEATS} seats (this one would hold ${seatsInOrder})`,
    );
  return items.map((item, i): PlannedItem => {
    const index = at[i]!;
    const experience = ctx.experiences.get(item.experience.id)!;
    const { quantity } = priced[i]!;
    if (!isDate(item.arrival)) throw itemError(index, 'arrival', 'must be a real date YYYY-MM-DD');
    if (!isHhmm(item.arrivalTime))
      throw itemError(index, 'arrivalTime', 'must be a time HHMM with minutes below 60');
    const status = item.status ?? defaultStatus;
    if (!staff && !statusKept[i] && STAFF_STATUSES.includes(status))
      throw forbidden(`Only the seller and its reservation staff book items in status ${status}.`);
    // orderMin and orderMax hold per departure, over every item of the order that books it.
    const seats = items.reduce(
      (sum, other, j) =>
        departureOf(other) === departureOf(item) ? sum + priced[j]!.quantity : sum,
      keptSeats.get(departureOf(item)) ?? 0,
    );
    const sizeError = groupSizeError(experience, seats);
    if (sizeError) {
      const detail =
        seats === quantity ? sizeError : `${sizeError} per departure (this order asks ${seats})`;
      throw itemError(index, 'quantity', `${experience.name} ${detail}`);
    }
    const instant = localToInstant(item.arrival, item.arrivalTime, experience.timezone);
    const start =
      instant &&
      (isScheduled(experience.schedules, item.arrival, item.arrivalTime) ||
        ctx.openedByHand?.has(departureKey(experience.id, instant)))
        ? instant
        : undefined;
    if (!start) {
      throw new DomainError(
        'not_scheduled',
        `${experience.name} does not depart on ${item.arrival} at ${String(item.arrivalTime).padStart(4, '0')}.`,
        {
          item: index,
          errors: [
            {
              in: 'body',
              name: `items.${index}.arrivalTime`,
              detail: 'is not a scheduled departure on that date',
            },
          ],
        },
      );
    }
    if (!staff && start.getTime() <= ctx.now.getTime()) {
      throw new DomainError(
        'departure_started',
        `This departure of ${experience.name} has already started.`,
        {
          item: index,
          errors: [{ in: 'body', name: `items.${index}.arrival`, detail: 'is in the past' }],
        },
      );
    }
    const { price, amount, amountMinor, lines } = priced[i]!;
    return {
      index,
      experience,
      arrival: item.arrival,
      arrivalTime: item.arrivalTime,
      start,
      quantity,
      price,
      amount,
      amountMinor,
      lines,
      status,
    };
  });
}

/** The total of the items, checked against the amount the client expects, if it sent one. */
export function totalOf(
  items: readonly { amountMinor: bigint }[],
  currency: string,
  expected: number | undefined,
): number {
  const digits = minorDigits(currency);
  const total = items.reduce((sum, item) => sum + item.amountMinor, 0n);
  const amount = fromMinor(total, digits);
  checkAmount(amount, currency, expected);
  return amount;
}

/**
 * 409 amount_mismatch when the client expects another amount (a stale quote). Both are the
 * double nearest the same decimal when they agree, so comparing them exactly is right.
 */
export function checkAmount(amount: number, currency: string, expected: number | undefined): void {
  if (expected === undefined || expected === amount) return;
  throw new DomainError(
    'amount_mismatch',
    `The order costs ${amount} ${currency}, not ${expected}: quote it again.`,
    {
      amount,
      currency,
      errors: [{ in: 'body', name: 'amount', detail: `must be ${amount}` }],
    },
  );
}

/** `email` is Xola's name for `customerEmail`; both may be sent if they agree. */
export function customerEmailOf(input: {
  customerEmail?: string | null;
  email?: string | null;
}): string | null | undefined {
  if (
    input.customerEmail !== undefined &&
    input.email !== undefined &&
    input.customerEmail?.toLowerCase() !== input.email?.toLowerCase()
  ) {
    throw invalid('body', 'email', 'differs from customerEmail (send one of them)');
  }
  return input.customerEmail !== undefined ? input.customerEmail : input.email;
}

/** What a guest checkout must give: who to confirm to and how to reach them. */
function checkGuest(input: BookingInput, email: string | null, quoting: boolean): void {
  if (input.source !== undefined && input.source !== 'checkout')
    throw invalid('body', 'source', 'is checkout for a booking with a publishable key');
  if (quoting) return;
  if (!email) throw invalid('body', 'customerEmail', 'is required at checkout');
  if (!input.phone?.trim()) throw invalid('body', 'phone', 'is required at checkout');
}

export function planBooking(input: BookingInput, ctx: BookingContext): PlannedBooking {
  const { sellerId, currency, staff } = sellerOf(input.items, ctx);

  if (input.customer && input.customer.id !== ctx.caller.id && !staff) {
    throw forbidden('Only the seller and its reservation staff book for someone else.');
  }
  if (input.customer && !ctx.customer) throw notFound(`Customer ${input.customer.id}`);
  const customer = ctx.customer ?? (staff || ctx.guest ? undefined : ctx.caller);
  // A customer booking for itself may leave its name and email to its account. Staff give
  // the customer's in the order: an account's details are never copied to someone else.
  const own = customer !== undefined && customer.id === ctx.caller.id;
  const customerName =
    input.customerName?.trim() || (own ? customer.name : ctx.quoting ? '' : undefined);
  if (customerName === undefined) {
    throw invalid(
      'body',
      'customerName',
      'is required when booking for someone else (staff give the customer’s name)',
    );
  }
  const email = customerEmailOf(input);
  const customerEmail = email === undefined ? (own ? customer.email : null) : email;
  if (ctx.guest) checkGuest(input, customerEmail, ctx.quoting === true);
  const defaultStatus =
    input.payment?.method === 'later' ? ITEM_STATUS.payLater : ITEM_STATUS.confirmed;
  const items = planItems(input.items, ctx, staff, defaultStatus);
  return {
    sellerId,
    customerId: customer?.id ?? null,
    customerName,
    customerEmail,
    phone: input.phone?.trim() || null,
    source: ctx.guest ? 'checkout' : (input.source ?? null),
    notes: input.notes ?? [],
    paymentMethod: input.payment?.method ?? null,
    currency,
    items,
    amount: totalOf(items, currency, input.amount),
  };
}
