/**
 * Xola's item status codes and what they mean for seats: below 200 an item holds its seats
 * unconfirmed (100 pending, 103 on hold until the order's deadline), 200-299 are confirmed
 * (200 confirmed, 202 confirmed not charged, 203 accepted "pay later"), 300 and above hold
 * no seat (700 canceled). An order's own `status` is derived from its items: DESIGN.md keeps
 * it `confirmed` or `canceled`; each item's code says whether it is confirmed.
 */
export const ITEM_STATUS = {
  pending: 100,
  hold: 103,
  confirmed: 200,
  notCharged: 202,
  payLater: 203,
  canceled: 700,
} as const;

export const ITEM_STATUSES = Object.values(ITEM_STATUS);

/** What a booking or change may set; 700 only by removing or canceling. */
export const BOOKABLE_STATUSES = [100, 103, 200, 202, 203] as const;

/** Statuses only the seller's staff may set (a customer cannot mark its own as not charged). */
export const STAFF_STATUSES: readonly number[] = [
  ITEM_STATUS.pending,
  ITEM_STATUS.hold,
  ITEM_STATUS.notCharged,
];

export const holdsSeats = (status: number): boolean => status < 300;

/** Confirmed: 200-299 (a hold or pending item is not, and its confirmation waits for it). */
export const isConfirmed = (status: number): boolean => status >= 200 && status < 300;

export type OrderStatus = 'confirmed' | 'canceled';

/** `canceled` when no item holds a seat any more, else `confirmed` (items say the rest). */
export const orderStatusOf = (statuses: readonly number[]): OrderStatus =>
  statuses.some(holdsSeats) ? 'confirmed' : 'canceled';
