/**
 * Money, exactly: amounts are whole numbers of the currency's minor unit (cents, yen, fils)
 * held as bigint while computing, and decimal numbers only on the wire and in `numeric`
 * columns. No price is ever multiplied as a binary float. Prices have at most as many
 * decimals as the currency's minor unit (ISO 4217, from the runtime's Intl data), so a
 * product or a sum of them never needs rounding; docs/booking.md says so.
 */

const digitsByCurrency = new Map<string, number>();

/** Decimal places of the currency's minor unit: 2 for USD, 0 for JPY, 3 for KWD. */
export function minorDigits(currency: string): number {
  let digits = digitsByCurrency.get(currency);
  if (digits === undefined) {
    // Building a NumberFormat costs tens of microseconds: once per currency (a few hundred
    // codes at most, and only well-formed ones reach here).
    try {
      digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits!;
    } catch {
      digits = 2; // A code Intl does not know: the common case.
    }
    digitsByCurrency.set(currency, digits);
  }
  return digits;
}

/** The most decimals a price may have in any currency (the columns are numeric(15, 3)). */
export const MAX_MINOR_DIGITS = 3;

/** How many decimals `value` is written with (its shortest round-trip form). */
export function decimalsOf(value: number): number {
  const text = String(value);
  const exponent = /e-(\d+)$/.exec(text);
  if (exponent) return Number(exponent[1]) + (text.split('e')[0]!.split('.')[1]?.length ?? 0);
  return text.split('.')[1]?.length ?? 0;
}

/**
 * A decimal amount as minor units. Values with more decimals than the currency has were
 * refused on the way in; stored ones are rounded half away from zero, the rule the docs give.
 */
export function toMinor(value: number | string, digits: number): bigint {
  const fixed = Number(value).toFixed(Math.min(digits + 1, 20));
  const negative = fixed.startsWith('-');
  const [whole, fraction = ''] = fixed.replace('-', '').split('.');
  const kept = BigInt(`${whole}${fraction.slice(0, digits)}`);
  const rounded = (fraction[digits] ?? '0') >= '5' ? kept + 1n : kept;
  return negative ? -rounded : rounded;
}

/** Minor units back to the decimal number the API shows (exact for these magnitudes). */
export function fromMinor(minor: bigint, digits: number): number {
  return Number(toDecimalString(minor, digits));
}

/** Minor units as the decimal text a `numeric` column stores exactly. */
export function toDecimalString(minor: bigint, digits: number): string {
  const negative = minor < 0n;
  const text = (negative ? -minor : minor).toString().padStart(digits + 1, '0');
  const whole = digits === 0 ? text : text.slice(0, -digits);
  const fraction = digits === 0 ? '' : `.${text.slice(-digits)}`;
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

export const sumMinor = (values: Iterable<bigint>): bigint => {
  let total = 0n;
  for (const value of values) total += value;
  return total;
};
