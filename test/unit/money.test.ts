import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decimalsOf,
  fromMinor,
  minorDigits,
  toDecimalString,
  toMinor,
} from '../../src/domain/money.js';

describe('money', () => {
  it('knows the minor unit of currencies', () => {
    expect(minorDigits('USD')).toBe(2);
    expect(minorDigits('EUR')).toBe(2);
    expect(minorDigits('JPY')).toBe(0);
    expect(minorDigits('KWD')).toBe(3);
    expect(minorDigits('XQQ')).toBe(2);
  });

  it('counts decimals as written', () => {
    expect(decimalsOf(10)).toBe(0);
    expect(decimalsOf(19.99)).toBe(2);
    expect(decimalsOf(1.125)).toBe(3);
    expect(decimalsOf(1e-7)).toBe(7);
    expect(decimalsOf(1.5e-7)).toBe(8);
  });

  it('converts decimals to minor units exactly and back', () => {
    expect(toMinor(19.99, 2)).toBe(1999n);
    expect(toMinor('0.07', 2)).toBe(7n);
    expect(toMinor(1500, 0)).toBe(1500n);
    expect(toMinor(1.125, 3)).toBe(1125n);
    expect(toDecimalString(7n, 2)).toBe('0.07');
    expect(toDecimalString(-1999n, 2)).toBe('-19.99');
    expect(toDecimalString(1500n, 0)).toBe('1500');
    expect(fromMinor(1999n, 2)).toBe(19.99);
  });

  it('rounds a stored value with more decimals half away from zero', () => {
    expect(toMinor(1.005, 2)).toBe(101n);
    expect(toMinor(1.004, 2)).toBe(100n);
    expect(toMinor(-1.005, 2)).toBe(-101n);
  });

  it('round-trips every amount of up to three decimals', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }),
        fc.constantFrom(0, 2, 3),
        (minor, digits) => {
          expect(toMinor(fromMinor(minor, digits), digits)).toBe(minor);
          expect(toMinor(toDecimalString(minor, digits), digits)).toBe(minor);
        },
      ),
    );
  });
});
