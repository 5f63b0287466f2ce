/**
 * Fair shares of the dispatcher's slots (`maxInFlight`, webhook.dispatcher.ts) between
 * budgets: an owner's hooks, or all the resellers' hooks of one seller (delivery-slots.ts).
 * The caps bound what one budget holds, not how many budgets hold slots: eight owners (four
 * sellers and their resellers) whose receivers never answer held all 64, and, as the claim
 * read the oldest due first, a slot that came free went back to their backlog, so another
 * tenant's delivery waited for all of it (14.5 s with a 2 s timeout; review-hooks finding 3).
 * Two rules now:
 *
 * - Turns: the claim reads each budget's due deliveries oldest first and interleaves the
 *   budgets, a budget's turn counted on from the slots it already holds
 *   (delivery-claims.repository.ts): a freed slot goes to the budget holding fewest, and
 *   the age of a backlog buys nothing.
 * - A reserve: the last quarter of the slots starts a budget's first delivery. Budgets
 *   that hold a slot share the rest, so a budget with nothing in flight starts at the next
 *   poll however many deliveries the others have waiting.
 *
 * The reserve also lends slots beyond the first, a quarter of it (4) to a budget, but only
 * to a budget that holds none of the shared slots, and only while more than half of it (8)
 * stays free. Six budgets stalling at their cap of 8 fill the shared 48, and every other
 * budget then ran one delivery at a time while up to 15 reserve slots stayed idle. The
 * budgets holding shared slots, the stalling ones, get none of it, and the last half of the
 * reserve starts first deliveries only, as the whole of it did: to shut a new budget out,
 * beyond the budgets filling the shared slots, takes two budgets stalling on 4 reserve
 * slots each and 8 more on their first (16 on their first before).
 */

import type { Busy } from './delivery-slots.js';

/** What the shares need of a delivery's hook. */
export interface Budgeted {
  owner_id: string;
  reseller_id?: string | null;
}

/**
 * A delivery's budget as the claim's SQL spells it (delivery-claims.repository.ts):
 * `owner <id>` for an owner's own hooks, `resellers <seller id>` for its resellers' hooks.
 */
export const budgetOf = (hook: Budgeted): string =>
  `${hook.reseller_id ? 'resellers' : 'owner'} ${hook.owner_id}`;

/** The slots kept for budgets that hold none: a quarter, at least one. */
export const reserveOf = (maxInFlight: number): number => Math.max(1, Math.ceil(maxInFlight / 4));

/** Reserve slots one budget holding no shared slot may have: a quarter of the reserve. */
const reserveEach = (reserve: number) => Math.ceil(reserve / 4);
/** Reserve slots that start only first deliveries: half of it, at least one. */
const reserveKept = (reserve: number) => Math.ceil(reserve / 2);

/** A delivery in flight: its hook, and whether it took a reserve slot (`take`). */
export interface Holding {
  hook: Budgeted;
  reserve: boolean;
}

/**
 * The shares for one poll, from the deliveries in flight; `take` counts in each delivery
 * chosen while the poll chooses, and says whether it took a reserve slot (the shared ones
 * all taken), for the dispatcher to keep with it while it is in flight.
 */
export function deliveryShares(maxInFlight: number, inFlight: Iterable<Holding>) {
  const reserve = reserveOf(maxInFlight);
  const shared = maxInFlight - reserve;
  const held = new Map<string, number>();
  /** Per budget, how many of the slots it holds are reserve slots. */
  const lent = new Map<string, number>();
  let total = 0;
  const count = (hook: Budgeted, fromReserve: boolean) => {
    const budget = budgetOf(hook);
    held.set(budget, (held.get(budget) ?? 0) + 1);
    if (fromReserve) lent.set(budget, (lent.get(budget) ?? 0) + 1);
    total += 1;
  };
  for (const { hook, reserve: fromReserve } of inFlight) count(hook, fromReserve);
  /**
   * Whether a budget that holds slots may have one more from the reserve: it holds reserve
   * slots only, fewer than its part, and more than the kept half stays free after.
   */
  const lends = (budget: string) => {
    const holds = held.get(budget) ?? 0;
    return (
      (lent.get(budget) ?? 0) === holds &&
      holds < reserveEach(reserve) &&
      maxInFlight - total > reserveKept(reserve)
    );
  };
  return {
    /** Slots held per budget: where each budget's turns start in the claim's order. */
    held: (): Record<string, number> => Object.fromEntries(held),
    /**
     * The caps' busy budgets and hosts (delivery-slots.ts) with the budgets these shares
     * close, for the claim to leave out: once the shared slots are all taken, every budget
     * that holds a slot and may not have one more from the reserve.
     */
    closing(busy: Busy): Busy {
      if (total < shared) return busy;
      const closed = { owners: new Set(busy.owners), resellers: new Set(busy.resellers) };
      for (const budget of held.keys()) {
        if (lends(budget)) continue;
        const space = budget.indexOf(' ');
        const kind = budget.slice(0, space) === 'resellers' ? 'resellers' : 'owners';
        closed[kind].add(budget.slice(space + 1));
      }
      return { owners: [...closed.owners], resellers: [...closed.resellers], hosts: busy.hosts };
    },
    /** Whether one more delivery of this hook's budget may start now. */
    allows(hook: Budgeted): boolean {
      if (total >= maxInFlight) return false;
      const budget = budgetOf(hook);
      return total < shared || !held.has(budget) || lends(budget);
    },
    /** Counts in a delivery chosen to start; whether it takes a reserve slot. */
    take(hook: Budgeted): boolean {
      const fromReserve = total >= shared;
      count(hook, fromReserve);
      return fromReserve;
    },
  };
}
