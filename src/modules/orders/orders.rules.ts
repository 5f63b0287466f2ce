/**
 * The rules of a booking's size, as a pure function: the group size an item may book.
 * Prices are in pricing.ts, statuses in item-status.ts.
 */
import type { BookableExperience } from '../experiences/index.js';

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
