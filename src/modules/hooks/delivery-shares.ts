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
 * - A reserve: the last quarter of the slots starts only a budget's first delivery. Budgets
 *   that hold a slot share the rest, so a budget with nothing in flight starts at the next
 *   poll however many deliveries the others have waiting; it would take as many stalling
 *   budgets as there are slots to shut it out.
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

/**
 * The shares for one poll, from the hooks of the deliveries in flight; `take` counts in
 * each delivery chosen while the poll chooses.
 */
export function deliveryShares(maxInFlight: number, inFlight: Iterable<Budgeted>) {
  const shared = maxInFlight - reserveOf(maxInFlight);
  const held = new Map<string, number>();
  let total = 0;
  const take = (hook: Budgeted) => {
    const budget = budgetOf(hook);
    held.set(budget, (held.get(budget) ?? 0) + 1);
    total += 1;
  };
  for (const hook of inFlight) take(hook);
  return {
    /** Slots held per budget: where each budget's turns start in the claim's order. */
    held: (): Record<string, number> => Object.fromEntries(held),
    /**
     * The caps' busy budgets and hosts (delivery-slots.ts) with the budgets these shares
     * close, for the claim to leave out: once the shared slots are all taken, every budget
     * that holds one.
     */
    closing(busy: Busy): Busy {
      if (total < shared) return busy;
      const closed = { owners: new Set(busy.owners), resellers: new Set(busy.resellers) };
      for (const budget of held.keys()) {
        const space = budget.indexOf(' ');
        const kind = budget.slice(0, space) === 'resellers' ? 'resellers' : 'owners';
        closed[kind].add(budget.slice(space + 1));
      }
      return { owners: [...closed.owners], resellers: [...closed.resellers], hosts: busy.hosts };
    },
    /** Whether one more delivery of this hook's budget may start now. */
    allows(hook: Budgeted): boolean {
      if (total >= maxInFlight) return false;
      return !held.has(budgetOf(hook)) || total < shared;
    },
    take,
  };
}
