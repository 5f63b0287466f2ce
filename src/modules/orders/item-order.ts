/**
 * An order's items in booking order (`order_items.position`): a booking numbers its items as
 * the request lists them; a change keeps every existing item where it was (a moved or
 * resized item too) and puts the items it adds after the last one. Clients read
 * `items[0]` as the first item booked, so this order is part of the API.
 */
import type { OrderItemRow } from './orders.schemas.js';

/**
 * `after` with positions: items also in `before` keep theirs, the others follow the highest
 * in the order given; sorted by position.
 */
export function inBookingOrder(
  before: readonly OrderItemRow[],
  after: readonly OrderItemRow[],
): OrderItemRow[] {
  const kept = new Map(before.map((i) => [i.id, i.position]));
  let next = before.reduce((max, i) => Math.max(max, i.position + 1), 0);
  return after
    .map((item) => ({ ...item, position: kept.get(item.id) ?? next++ }))
    .sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
