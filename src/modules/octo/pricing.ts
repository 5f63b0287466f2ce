/**
 * OCTo prices (octo/pricing) from exact amounts: whole numbers of the currency's minor unit
 * (domain/money.ts), with `currencyPrecision` its number of decimals. `retail` is what the
 * guest pays; `original` the same (we give no discounts); `net`, what the reseller owes, is
 * retail less the reseller's commission, rounded half up to the minor unit, or null when the
 * credential has no commission (the seller's own key, a reseller without one). No taxes are
 * known here, so `includedTaxes` is always empty.
 */
import { minorDigits } from '../../domain/money.js';
import type { OctoPricingView } from './octo.schemas.js';

/** A commission in basis points (12.5 % is 1250): exact, where a percentage float is not. */
export type CommissionBps = number | null;

/** 0-100 with at most two decimals as basis points; undefined when out of that range. */
export function commissionBps(percent: number): number | undefined {
  const bps = Math.round(percent * 100);
  if (!(percent >= 0 && percent <= 100) || Math.abs(bps - percent * 100) > 1e-6) return undefined;
  return bps;
}

/** What the reseller owes for `retail`, rounded half up; null without a commission. */
export function netOf(retail: bigint, commission: CommissionBps): bigint | null {
  if (commission === null) return null;
  return (retail * BigInt(10_000 - commission) + 5_000n) / 10_000n;
}

export function octoPricing(
  retail: bigint,
  currency: string,
  commission: CommissionBps,
): OctoPricingView {
  const net = netOf(retail, commission);
  return {
    original: Number(retail),
    retail: Number(retail),
    net: net === null ? null : Number(net),
    currency,
    currencyPrecision: minorDigits(currency),
    includedTaxes: [],
  };
}

/** Adds prices of one currency (a booking's seats); net stays null if any is null. */
export function sumPricing(prices: readonly OctoPricingView[], currency: string): OctoPricingView {
  const retail = prices.reduce((sum, p) => sum + p.retail, 0);
  const nets = prices.map((p) => p.net);
  return {
    original: prices.reduce((sum, p) => sum + p.original, 0),
    retail,
    net: nets.some((n) => n === null) ? null : nets.reduce<number>((s, n) => s + n!, 0),
    currency,
    currencyPrecision: minorDigits(currency),
    includedTaxes: [],
  };
}
