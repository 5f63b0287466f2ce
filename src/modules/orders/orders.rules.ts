/**
 * The rules of a booking's size, as a pure function: the group size an item may book.
 * Prices are in pricing.ts, statuses in item-status.ts.
 */
import type { BookableExperience } from '../experiences/index.js';

/**
 * The seats one order may hold, over all its items. Each seat is a guest with its own ticket,
 * written in the booking's one statement: without a bound, one request of 20 items of 10,000
 * seats each built a statement past PostgreSQL's 65,535 parameters and held the event loop
 * while doing it. A thousand is more than any tour or activity sells in one booking; a larger
 * group is booked as several orders.
 */
export const MAX_ORDER_SEATS = 1000;

/**
 * The seats one guest checkout (a publishable key, anonymous) may book in one order: the
 * widget offers up to 50. An anonymous caller with a public key otherwise booked a thousand
 * confirmed seats a request; a larger group calls the seller, whose staff book any size.
 */
export const MAX_GUEST_ORDER_SEATS = 50;

/** Why `quantity` is not a group size the experience takes, or undefined if it is. */
export function groupSizeError(
  experience: Pick<BookableExperience, 'orderMin' | 'orderMax'>,
  quantity: number,
): string | undefined {
  if (experience.orderMin !== null && quantity < experience.orderMin) {
    return `books at least ${experience.orderMin} seats at a time`;
  }
  if (experience.orderMax !== null && quantity > experience.orderMax) {
    return `books at most ${experience.orderMax} seats at a time`;
  }
  return undefined;
}
