/**
 * The rules of a booking's size, as a pure function: the group size an item may book.
 * Prices are in pricing.ts, statuses in item-status.ts.
 */
import type { ExperienceRow } from '../experiences/index.js';

/** Why `quantity` is not a group size the experience takes, or undefined if it is. */
export function groupSizeError(
  experience: Pick<ExperienceRow, 'order_min' | 'order_max'>,
  quantity: number,
): string | undefined {
  if (experience.order_min !== null && quantity < experience.order_min) {
    return `books at least ${experience.order_min} seats at a time`;
  }
  if (experience.order_max !== null && quantity > experience.order_max) {
    return `books at most ${experience.order_max} seats at a time`;
  }
  return undefined;
}
