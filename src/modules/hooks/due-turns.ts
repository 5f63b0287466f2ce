/**
 * The claim's turns taken in the dispatcher (delivery-claims.repository.ts): under 1,000
 * due deliveries the claim reads them all in due order, and this takes the turns the walk
 * of every hook (`everyHooksDue`) takes in SQL, over them. Written twice on purpose, so the
 * two are held to one order on random data (test/db/webhook-claim-turns.test.ts).
 */
import type { ClaimPlan, DueDelivery } from './delivery-claims.repository.js';
import { budgetOf } from './delivery-shares.js';
import { hostOf } from './delivery-slots.js';

/** A due delivery as read in due order, with what its hook's caps and status need. */
export interface DueRow {
  id: string;
  hook_id: string;
  url: string;
  owner_id: string;
  reseller_id: string | null;
  hook_status: 'enabled' | 'disabled';
}

/**
 * `everyHooksDue`'s choice and order, over every due delivery read in due order: those of
 * enabled hooks outside `busy`, each hook's first `perHook`, by their budget's turn counted
 * on from the slots it holds, in due order within a turn; the first `limit`.
 */
export function inTurns(
  rows: readonly DueRow[],
  limit: number,
  { busy, held = {}, perHook = limit }: ClaimPlan,
): DueDelivery[] {
  const owners = new Set(busy?.owners);
  const resellers = new Set(busy?.resellers);
  const hosts = new Set(busy?.hosts);
  const ofHook = new Map<string, number>();
  const turns = new Map<string, number>();
  const chosen: { delivery: DueDelivery; at: number }[] = [];
  for (const { id, hook_id, hook_status, ...hook } of rows) {
    if (hook_status !== 'enabled') continue;
    if ((hook.reseller_id ? resellers : owners).has(hook.owner_id)) continue;
    if (hosts.has(hostOf(hook.url))) continue;
    const n = (ofHook.get(hook_id) ?? 0) + 1;
    ofHook.set(hook_id, n);
    if (n > perHook) continue;
    const budget = budgetOf(hook);
    const turn = (turns.get(budget) ?? 0) + 1;
    turns.set(budget, turn);
    chosen.push({ delivery: { id, hook }, at: (held[budget] ?? 0) + turn });
  }
  // Stable: within a turn, due order.
  return chosen
    .sort((a, b) => a.at - b.at)
    .slice(0, limit)
    .map((c) => c.delivery);
}
