/**
 * An OCTo booking's status from its order item and what the OCTo booking recorded. The item's
 * Xola code says most: 103 (held) is ON_HOLD until the hold's deadline, EXPIRED from then on
 * (the sweeper releases it soon after; a confirmation in between is refused all the same);
 * 100 (pending the seller) is PENDING; 200, 202 and 203 are CONFIRMED, and REDEEMED once
 * every seat has checked in; 700 is EXPIRED when the hold sweeper released it, CANCELLED
 * otherwise. A unit item (a seat) shares its booking's status, but shows REDEEMED once its
 * own guest checked in.
 */
import { ITEM_STATUS } from '../orders/index.js';
import type { BookingStatus } from './octo.schemas.js';

export interface StatusFacts {
  /** The order item's Xola status code. */
  itemStatus: number;
  /** The order's hold deadline (while it holds seats unconfirmed). */
  holdExpiresAt: Date | null;
  /** Whether the item was canceled by the hold sweeper (not by anyone's cancel). */
  expired: boolean;
  /** When each live seat checked in (null: not yet). */
  checkIns: readonly (Date | null)[];
}

export function octoBookingStatus(facts: StatusFacts, now: Date): BookingStatus {
  const { itemStatus, holdExpiresAt } = facts;
  if (itemStatus === ITEM_STATUS.canceled) return facts.expired ? 'EXPIRED' : 'CANCELLED';
  if (itemStatus === ITEM_STATUS.hold)
    return holdExpiresAt !== null && now.getTime() >= holdExpiresAt.getTime()
      ? 'EXPIRED'
      : 'ON_HOLD';
  if (itemStatus === ITEM_STATUS.pending) return 'PENDING';
  const all = facts.checkIns.length > 0 && facts.checkIns.every((at) => at !== null);
  return all ? 'REDEEMED' : 'CONFIRMED';
}

export const unitItemStatus = (booking: BookingStatus, checkedInAt: Date | null): BookingStatus =>
  booking === 'CONFIRMED' && checkedInAt !== null ? 'REDEEMED' : booking;

/**
 * Whether a reseller may still cancel: a live booking whose departure has not started and
 * none of whose guests has checked in (one on board keeps the booking, even when the others
 * have not come yet: orders/reseller-changes.service.ts refuses the same).
 */
export const isCancellable = (
  status: BookingStatus,
  start: Date,
  now: Date,
  anyCheckedIn: boolean,
): boolean =>
  (status === 'ON_HOLD' || status === 'CONFIRMED' || status === 'PENDING') &&
  !anyCheckedIn &&
  now.getTime() < start.getTime();
