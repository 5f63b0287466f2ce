/**
 * Xola's `lineItems` on order items, both ways. In: a channel manager sends an item's guest
 * counts only as `lineItems: [{object: "lineitem_demographic", demographic: {id}, quantity}]`;
 * they are read as the item's `demographics` (the one place guest types are priced), and an
 * item that gives both with different counts is refused. Out: every quote and order item
 * shows its priced lines (`object`, `demographic`, `quantity`, `price`, `amount`): one per
 * guest type booked, or one line of the default guest type (`demographic: null`) for an item
 * booked by plain quantity, so a client always finds a `price`.
 */
import { invalid } from '../../domain/errors.js';
import type { DemographicInput, DemographicLine } from './pricing.js';

export const LINE_ITEM_OBJECT = 'lineitem_demographic';

export interface LineItemInput {
  object?: string;
  demographic: { id: string } | null;
  quantity: number;
  price?: number;
  amount?: number;
}

export interface LineItem {
  object: typeof LINE_ITEM_OBJECT;
  demographic: { id: string } | null;
  quantity: number;
  price: number;
  amount: number;
}

interface ItemCounts {
  quantity?: number;
  demographics?: DemographicInput[];
  lineItems?: LineItemInput[];
}

/** Guest counts as `id -> quantity` (zero counts dropped), to compare two ways of saying them. */
function counts(lines: readonly { demographic: { id: string } | null; quantity: number }[]) {
  const total = new Map<string, number>();
  for (const line of lines) {
    if (line.quantity === 0) continue;
    const key = line.demographic?.id ?? '';
    total.set(key, (total.get(key) ?? 0) + line.quantity);
  }
  return total;
}

const sameCounts = (a: Map<string, number>, b: Map<string, number>): boolean =>
  a.size === b.size && [...a].every(([id, n]) => b.get(id) === n);

/**
 * The item with its `lineItems` read into `demographics` (or `quantity`, when every line is
 * the default guest type); `at` names the item in errors (`items.0`). Prices a client sends
 * on lines are ignored: the service prices (and `amount` on the order checks the total).
 */
export function readLineItems<T extends ItemCounts>(item: T, at: string): Omit<T, 'lineItems'> {
  const { lineItems, ...rest } = item;
  if (lineItems === undefined) return rest;
  const typed = lineItems.filter((line) => line.demographic !== null);
  if (typed.length > 0 && typed.length < lineItems.length)
    throw invalid('body', `${at}.lineItems`, 'give every line a demographic, or none of them');
  if (typed.length === 0) {
    const quantity = lineItems.reduce((sum, line) => sum + line.quantity, 0);
    if (rest.quantity !== undefined && rest.quantity !== quantity)
      throw invalid(
        'body',
        `${at}.lineItems`,
        `count ${quantity} seats, but quantity says ${rest.quantity}`,
      );
    return quantity > 0 ? { ...rest, quantity } : rest;
  }
  const demographics = typed.map((line) => ({
    demographic: { id: line.demographic!.id },
    quantity: line.quantity,
  }));
  if (
    rest.demographics !== undefined &&
    !sameCounts(counts(rest.demographics), counts(demographics))
  )
    throw invalid(
      'body',
      `${at}.lineItems`,
      'count other guests than demographics; give one of them',
    );
  return { ...rest, demographics: rest.demographics ?? demographics };
}

/** The priced lines of an item, as Xola shows them. */
export function lineItemsOf(item: {
  quantity: number;
  price: number;
  amount: number;
  lines: readonly DemographicLine[];
}): LineItem[] {
  if (item.lines.length === 0) {
    return [
      {
        object: LINE_ITEM_OBJECT,
        demographic: null,
        quantity: item.quantity,
        price: item.price,
        amount: item.amount,
      },
    ];
  }
  return item.lines.map((line) => ({
    object: LINE_ITEM_OBJECT,
    demographic: { id: line.demographic.id },
    quantity: line.quantity,
    price: line.price,
    amount: line.amount,
  }));
}
