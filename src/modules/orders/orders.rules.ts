/**
 * The rules of a booking, as pure functions: prices by price type, the group size an item
 * may book, and when a departure may still be booked.
 */
import type { ExperienceRow } from '../experiences/index.js';

/** `person`: price per seat; `outing`: one price for the booking, whatever its size. */
export function itemAmount(
  priceType: 'person' | 'outing',
  price: number,
  quantity: number,
): number {
  return priceType === 'person' ? roundCents(price * quantity) : price;
}

export const roundCents = (amount: number): number => Math.round(amount * 100) / 100;

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
