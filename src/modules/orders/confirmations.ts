/**
 * When an order's confirmation email is sent: the first time it has a confirmed item (status
 * 200-299; docs/booking.md). A booking with one queues it; a staff hold (103) or pending
 * order (100) does not, and the change that later confirms one of its items does. The
 * outbox keeps one confirmation per order, so confirming again never sends a second. Who
 * causes it decides the rest: a reseller never (its guest hears from the reseller), a
 * customer account mailing others only within its hourly relay cap, a guest checkout's key
 * a few a day to one address, and the seller's own bookings (its account, its staff, its
 * keys) within the seller's daily budget of mail to others.
 */
import { afterCommit, type Tx } from '../../db/unit-of-work.js';
import { confirmationsWithheld } from '../../metrics/index.js';
import { isConfirmed } from './item-status.js';
import type { OrdersContext } from './orders.context.js';

/** Who books or confirms: its account, and whether its confirmations to others are capped. */
export interface Sender {
  id: string;
  email: string;
  /**
   * Customers are; the seller's staff are not (their customers' addresses are business), but
   * their mail to others draws on the seller's daily budget.
   */
  capped: boolean;
  /** An admin: the operator's own staff, held to no seller's budget. */
  operator?: boolean;
  /**
   * False: no confirmation email of ours, whatever address the order carries. A reseller's
   * booking: its guest hears from the reseller.
   */
  confirms?: boolean;
  /**
   * A guest checkout's publishable key: the guest writes its own address, so no hourly cap
   * on others, but at most GUEST_CONFIRMATIONS_PER_ADDRESS a day to one address (a page's
   * key is public: without it, anyone could mail a stranger from the seller's name on
   * every booking).
   */
  guest?: boolean;
}

/** Confirmations of one publishable key's bookings to one address per day. */
export const GUEST_CONFIRMATIONS_PER_ADDRESS = 3;

type Cap = 'customer_hourly' | 'guest_address' | 'seller_daily';

/**
 * Which relay cap, if any, holds a confirmation to `recipient` caused by `sender` on one of
 * `sellerId`'s orders: then the booking stands and the email is not sent (docs/booking.md).
 * A guest's is counted for its address first, then, like the seller's staff's, in the
 * seller's budget (locks always taken in that order).
 */
async function heldBy(
  ctx: OrdersContext,
  tx: Tx,
  recipient: string,
  sender: Sender,
  sellerId: string,
): Promise<Cap | undefined> {
  const { relayCap } = ctx;
  if (sender.guest) {
    const sent = await relayCap.sentToRecipientLastDay(tx, sender.id, recipient);
    if (sent >= GUEST_CONFIRMATIONS_PER_ADDRESS) return 'guest_address';
  } else if (sender.capped) {
    if (recipient.toLowerCase() === sender.email.toLowerCase()) return undefined;
    const sent = await relayCap.sentToOthersLastHour(tx, sender.id, sender.email);
    return sent >= relayCap.toOthersPerHour ? 'customer_hourly' : undefined;
  } else if (sender.operator) {
    return undefined;
  }
  const budget = relayCap.perSeller;
  if (!budget) return undefined;
  const sent = await budget.sentToOthersLastDay(tx, sellerId, recipient);
  return sent !== 'own' && sent >= budget.perDay ? 'seller_daily' : undefined;
}

/**
 * Whether a relay cap holds this confirmation; if so, counted once the booking commits (and
 * the seller named in the log when its own budget held it: an id, no address).
 */
async function overRelayCap(
  ctx: OrdersContext,
  tx: Tx,
  recipient: string,
  sender: Sender,
  sellerId: string,
): Promise<boolean> {
  const cap = await heldBy(ctx, tx, recipient, sender, sellerId);
  if (!cap) return false;
  afterCommit(tx, () => {
    confirmationsWithheld.inc({ cap });
    if (cap === 'seller_daily') ctx.relayCap.perSeller?.withheld?.(sellerId);
  });
  return true;
}

/** Whether a write confirms an order's first item: what sends its confirmation. */
export function confirmsFirst(
  before: readonly { status: number }[],
  after: readonly { status: number }[],
): boolean {
  const confirmed = (items: readonly { status: number }[]) =>
    items.some((i) => isConfirmed(i.status));
  return !confirmed(before) && confirmed(after);
}

/**
 * Whether this write sends the order's confirmation: its items before (none for a booking)
 * and after, the address it goes to, the order's seller, and who causes it (none: a write
 * that never confirms, such as an expired hold or a reseller's change).
 */
export async function sendsConfirmation(
  ctx: OrdersContext,
  tx: Tx,
  write: {
    before: readonly { status: number }[];
    after: readonly { status: number }[];
    recipient: string | null;
    sellerId: string;
    sender: Sender | undefined;
  },
): Promise<boolean> {
  const { sender, recipient } = write;
  if (!sender || sender.confirms === false || !recipient) return false;
  if (!confirmsFirst(write.before, write.after)) return false;
  return !(await overRelayCap(ctx, tx, recipient, sender, write.sellerId));
}

/**
 * Whether a change of the order's `customerEmail` takes its confirmation, queued and not yet
 * sent, to the new address: as a new confirmation would go there (the same relay caps, and
 * never for a write that does not confirm), caused by whoever changed it. Otherwise the
 * queued one is skipped when its time comes (mail/dispatcher.ts): the old address, a typo
 * or a stranger's, never gets the booking code.
 */
export async function readdressesConfirmation(
  ctx: OrdersContext,
  tx: Tx,
  write: {
    before: string | null;
    after: string | null;
    sellerId: string;
    sender: Sender | undefined;
  },
): Promise<boolean> {
  const { sender, after } = write;
  if (!sender || sender.confirms === false || !after) return false;
  if (write.before !== null && write.before.toLowerCase() === after.toLowerCase()) return false;
  return !(await overRelayCap(ctx, tx, after, sender, write.sellerId));
}
