/**
 * Pricing an item, as a pure function: which guest types it books and how many of each,
 * each line's price and amount, and the item's amount, all in the currency's minor unit
 * (domain/money.ts). An item books either a plain `quantity` (the experience's own price,
 * the default guest type) or `demographics` with quantities; `quantity` is then their sum.
 * `person` pricing charges every seat; `outing` charges the experience's price once, the
 * guest types then only counting heads (docs/booking.md). A departure's schedule may add a
 * `priceDelta` to every unit price (docs/experiences.md).
 */
import { invalid } from '../../domain/errors.js';
import { fromMinor, minorDigits, toMinor } from '../../domain/money.js';
import type { BookableExperience } from '../experiences/index.js';

export interface DemographicInput {
  demographic: { id: string };
  quantity: number;
}

/** A guest type booked on an item, as stored and shown. */
export interface DemographicLine {
  demographic: { id: string };
  label: string;
  code: string;
  quantity: number;
  price: number;
  amount: number;
}

export interface PricedItem {
  quantity: number;
  /**
   * The experience's price (per seat for `person` pricing, of the whole item for `outing`);
   * with guest types, each line has its own.
   */
  price: number;
  amount: number;
  amountMinor: bigint;
  lines: DemographicLine[];
}

type Priced = Pick<BookableExperience, 'price' | 'priceType' | 'currency' | 'demographics'>;

/**
 * Prices one item; `at` names it in errors (`items.0`); `delta` is its departure's
 * priceDelta (the experience's rules keep every price plus delta at 0 or more).
 */
export function priceItem(
  experience: Priced,
  input: { quantity?: number; demographics?: DemographicInput[] },
  at: string,
  delta = 0,
): PricedItem {
  const digits = minorDigits(experience.currency);
  const deltaMinor = toMinor(delta, digits);
  const base = toMinor(experience.price, digits) + deltaMinor;
  const outing = experience.priceType === 'outing';
  if (!input.demographics || input.demographics.length === 0) {
    if (input.quantity === undefined)
      throw invalid('body', `${at}.quantity`, 'give a quantity or demographics with quantities');
    const amountMinor = outing ? base : base * BigInt(input.quantity);
    return {
      quantity: input.quantity,
      price: fromMinor(base, digits),
      amount: fromMinor(amountMinor, digits),
      amountMinor,
      lines: [],
    };
  }
  const known = new Map(experience.demographics.map((d) => [d.id, d]));
  const seen = new Set<string>();
  const lines = input.demographics.map((entry, index): DemographicLine & { minor: bigint } => {
    const stored = known.get(entry.demographic.id);
    const name = `${at}.demographics.${index}.demographic.id`;
    if (!stored) throw invalid('body', name, 'is not a guest type of this experience');
    if (seen.has(stored.id)) throw invalid('body', name, 'is listed twice');
    seen.add(stored.id);
    const price = stored.price === null ? base : toMinor(stored.price, digits) + deltaMinor;
    const minor = outing ? 0n : price * BigInt(entry.quantity);
    return {
      demographic: { id: stored.id },
      label: stored.label,
      code: stored.code,
      quantity: entry.quantity,
      price: fromMinor(price, digits),
      amount: fromMinor(minor, digits),
      minor,
    };
  });
  const quantity = lines.reduce((sum, line) => sum + line.quantity, 0);
  if (quantity < 1) throw invalid('body', `${at}.demographics`, 'must book at least one seat');
  if (input.quantity !== undefined && input.quantity !== quantity) {
    throw invalid(
      'body',
      `${at}.quantity`,
      `must equal the sum of the guest types' quantities (${quantity})`,
    );
  }
  const amountMinor = outing ? base : lines.reduce((sum, line) => sum + line.minor, 0n);
  return {
    quantity,
    price: fromMinor(base, digits),
    amount: fromMinor(amountMinor, digits),
    amountMinor,
    lines: lines.map(({ minor: _minor, ...line }) => line),
  };
}
