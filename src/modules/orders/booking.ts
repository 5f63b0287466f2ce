/**
 * Checking a booking request before anything is written: who books for whom, which
 * experiences, whether each arrival is a scheduled departure and the group size is allowed.
 * Produces the priced items to write, or throws the 4xx the client should see.
 */
import type { Access } from '../../domain/access.js';
import { DomainError, forbidden, invalid, notFound } from '../../domain/errors.js';
import type { ExperienceRow } from '../experiences/index.js';
import { isDate, isHhmm, isScheduled, localToInstant, type Schedule } from '../schedules/index.js';
import type { Account } from '../users/index.js';
import { groupSizeError, itemAmount } from './orders.rules.js';

export interface BookingItemInput {
  experience: { id: string };
  arrival: string;
  arrivalTime: number;
  quantity: number;
}

export interface BookingInput {
  customer?: { id: string };
  customerName?: string;
  customerEmail?: string | null;
  items: BookingItemInput[];
}

export interface PlannedItem {
  index: number;
  experience: ExperienceRow;
  arrival: string;
  arrivalTime: number;
  start: Date;
  quantity: number;
  price: number;
  amount: number;
}

export interface PlannedBooking {
  sellerId: string;
  customerId: string | null;
  customerName: string;
  customerEmail: string | null;
  currency: string;
  items: PlannedItem[];
}

export interface BookingContext {
  access: Access;
  /** The caller's account (defaults for a customer booking for itself). */
  caller: Account;
  experiences: ReadonlyMap<string, ExperienceRow>;
  /**
   * The customer account named in the request, when the caller may attach it: itself, or an
   * account that booked with the seller before or is its delegate by id. Undefined
   * otherwise, which answers exactly as an unknown id does.
   */
  customer: Account | undefined;
  /** The stored schedules of an experience. */
  schedulesOf(experience: ExperienceRow): Schedule[];
  now: Date;
}

const itemError = (index: number, field: string, detail: string) =>
  invalid('body', `items.${index}.${field}`, detail);

export function planBooking(input: BookingInput, ctx: BookingContext): PlannedBooking {
  const first = ctx.experiences.get(input.items[0]!.experience.id);
  // Experiences the caller may not see do not exist, as far as it is concerned.
  const staffOf = new Map<string, boolean>();
  for (const [index, item] of input.items.entries()) {
    const experience = ctx.experiences.get(item.experience.id);
    const staff = experience
      ? (staffOf.get(experience.seller_id) ?? ctx.access.can('orders', experience.seller_id))
      : false;
    if (experience) staffOf.set(experience.seller_id, staff);
    if (!experience || (!experience.visible && !staff)) {
      throw new DomainError('not_found', `Experience ${item.experience.id} was not found.`, {
        errors: [
          { in: 'body', name: `items.${index}.experience.id`, detail: 'no such experience' },
        ],
      });
    }
    if (experience.seller_id !== first!.seller_id)
      throw itemError(index, 'experience.id', 'all items of an order must belong to one seller');
    if (experience.currency !== first!.currency)
      throw itemError(index, 'experience.id', 'all items of an order must share one currency');
  }
  const sellerId = first!.seller_id;
  const staff = staffOf.get(sellerId) ?? false;

  if (input.customer && input.customer.id !== ctx.caller.id && !staff) {
    throw forbidden('Only the seller and its reservation staff book for someone else.');
  }
  if (input.customer && !ctx.customer) throw notFound(`Customer ${input.customer.id}`);
  const customer = ctx.customer ?? (staff ? undefined : ctx.caller);
  // A customer booking for itself may leave its name and email to its account. Staff give
  // the customer's in the order: an account's details are never copied to someone else.
  const own = customer !== undefined && customer.id === ctx.caller.id;
  const customerName = input.customerName?.trim() || (own ? customer.name : undefined);
  if (!customerName) {
    throw invalid(
      'body',
      'customerName',
      'is required when booking for someone else (staff give the customer’s name)',
    );
  }
  const customerEmail =
    input.customerEmail === undefined ? (own ? customer.email : null) : input.customerEmail;

  const items = input.items.map((item, index): PlannedItem => {
    const experience = ctx.experiences.get(item.experience.id)!;
    if (!isDate(item.arrival)) throw itemError(index, 'arrival', 'must be a real date YYYY-MM-DD');
    if (!isHhmm(item.arrivalTime))
      throw itemError(index, 'arrivalTime', 'must be a time HHMM with minutes below 60');
    // orderMin and orderMax hold per departure, over every item of the order that books it.
    const departure = `${experience.id} ${item.arrival} ${item.arrivalTime}`;
    const seats = input.items
      .filter((i) => `${i.experience.id} ${i.arrival} ${i.arrivalTime}` === departure)
      .reduce((sum, i) => sum + i.quantity, 0);
    const sizeError = groupSizeError(experience, seats);
    if (sizeError) {
      const detail =
        seats === item.quantity
          ? sizeError
          : `${sizeError} per departure (this order asks ${seats})`;
      throw itemError(index, 'quantity', `${experience.name} ${detail}`);
    }
    const start = isScheduled(ctx.schedulesOf(experience), item.arrival, item.arrivalTime)
      ? localToInstant(item.arrival, item.arrivalTime, experience.timezone)
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
    return {
      index,
      experience,
      arrival: item.arrival,
      arrivalTime: item.arrivalTime,
      start,
      quantity: item.quantity,
      price: experience.price,
      amount: itemAmount(experience.price_type, experience.price, item.quantity),
    };
  });

  return {
    sellerId,
    customerId: customer?.id ?? null,
    customerName,
    customerEmail,
    currency: first!.currency,
    items,
  };
}
