/** `cli seed` flags: defaults (derived from the sizes given), number syntax, and refusals. */
import { describe, expect, it } from 'vitest';
import {
  parseSeedArgs,
  resolveSeedOptions,
  SeedUsageError,
  sundayBefore,
} from '../../src/cli/seed/options.js';

// A Wednesday; 365 days before it, 2024-06-11, was a Tuesday: the Sunday before is the 9th.
const NOW = new Date('2025-06-11T15:30:00Z');

function usageError(args: string[]): SeedUsageError {
  try {
    parseSeedArgs(args, NOW);
  } catch (error) {
    expect(error).toBeInstanceOf(SeedUsageError);
    return error as SeedUsageError;
  }
  throw new Error(`parseSeedArgs(${JSON.stringify(args)}) was accepted`);
}

describe('parseSeedArgs', () => {
  it("defaults to the benchmark's data set, from the Sunday a year ago", () => {
    expect(parseSeedArgs([], NOW)).toEqual({
      sellers: 1000,
      experiences: 5000,
      events: 200_000,
      customers: 20_000,
      orders: 1_000_000,
      seed: 1,
      from: '2024-06-09',
      batch: 50_000,
      reset: false,
    });
  });

  it('derives the sizes not given from those given', () => {
    expect(parseSeedArgs(['--sellers', '3', '--orders', '1000'], NOW)).toMatchObject({
      sellers: 3,
      experiences: 15,
      events: 600,
      customers: 20,
      orders: 1000,
    });
    expect(parseSeedArgs(['--sellers', '2', '--experiences', '7'], NOW)).toMatchObject({
      experiences: 7,
      events: 280,
    });
    // At least ten customers, however few orders.
    expect(parseSeedArgs(['--orders', '0'], NOW)).toMatchObject({ orders: 0, customers: 10 });
  });

  it('reads every flag, numbers with underscores, and --flag=value', () => {
    expect(
      parseSeedArgs(
        [
          '--sellers=2_000',
          '--experiences',
          '10_000',
          '--events',
          '1_000_000',
          '--customers',
          '50_000',
          '--orders',
          '10_000_000',
          '--seed',
          '42',
          '--from',
          '2024-01-07',
          '--batch',
          '100_000',
          '--reset',
        ],
        NOW,
      ),
    ).toEqual({
      sellers: 2000,
      experiences: 10_000,
      events: 1_000_000,
      customers: 50_000,
      orders: 10_000_000,
      seed: 42,
      from: '2024-01-07',
      batch: 100_000,
      reset: true,
    });
    expect(parseSeedArgs(['--seed', String(2 ** 40)], NOW).seed).toBe(2 ** 40);
    expect(parseSeedArgs(['--seed', '0'], NOW).seed).toBe(0);
  });

  it.each([
    ['sellers', ['--sellers', '0']],
    ['sellers', ['--sellers', 'many']],
    ['sellers', ['--sellers', '1.5']],
    ['experiences', ['--experiences', '0']],
    ['events', ['--events=-3']],
    ['customers', ['--customers', '0']],
    ['orders', ['--orders=-1']],
    ['orders', ['--orders', '1e400']],
    ['orders', ['--orders', '9_007_199_254_740_993']],
    ['seed', ['--seed', String(2 ** 40 + 1)]],
    ['seed', ['--seed=-1']],
    ['batch', ['--batch', '0']],
  ])('refuses a bad --%s (%j), naming the flag and the value', (flag, args) => {
    const error = usageError(args);
    expect(error.message).toContain(`--${flag} must be an integer from`);
    const value = args.length === 1 ? args[0]!.split('=')[1]! : args[1]!;
    expect(error.message).toContain(`(got "${value}")`);
  });

  it('refuses a --from that is not a Sunday written YYYY-MM-DD', () => {
    for (const from of ['2024-01-08', '2024/01/07', '7 Jan 2024', '2024-02-30', '2024-1-7']) {
      expect(usageError(['--from', from]).message).toBe(
        `--from must be a Sunday written YYYY-MM-DD (got "${from}")`,
      );
    }
  });

  it('refuses fewer experiences than sellers, and fewer events than experiences', () => {
    expect(usageError(['--sellers', '5', '--experiences', '4']).message).toMatch(
      /--experiences must be at least --sellers/,
    );
    expect(usageError(['--sellers', '5', '--experiences', '5', '--events', '4']).message).toMatch(
      /--events must be at least --experiences/,
    );
    // Equal is enough: one each.
    expect(
      parseSeedArgs(['--sellers', '5', '--experiences', '5', '--events', '5'], NOW),
    ).toMatchObject({ sellers: 5, experiences: 5, events: 5 });
  });

  it('turns unknown flags, missing values and stray arguments into usage errors', () => {
    expect(usageError(['--nope', '1']).message).toMatch(/nope/);
    expect(usageError(['--orders']).message).toMatch(/orders/);
    expect(usageError(['--reset=yes']).message).toMatch(/reset/);
    usageError(['1000']);
  });
});

describe('resolveSeedOptions', () => {
  it('fills in what is missing and keeps what is given', () => {
    expect(resolveSeedOptions({ sellers: 2, orders: 5000, reset: true }, NOW)).toEqual({
      sellers: 2,
      experiences: 10,
      events: 400,
      customers: 100,
      orders: 5000,
      seed: 1,
      from: '2024-06-09',
      batch: 50_000,
      reset: true,
    });
  });

  it('applies the same checks as the flags', () => {
    expect(() => resolveSeedOptions({ sellers: 10, experiences: 9 }, NOW)).toThrow(
      /--experiences must be at least --sellers/,
    );
    expect(() => resolveSeedOptions({ sellers: 1, experiences: 10, events: 9 }, NOW)).toThrow(
      /--events must be at least --experiences/,
    );
    expect(() => resolveSeedOptions({ from: '2024-06-10' }, NOW)).toThrow(SeedUsageError);
    expect(() => resolveSeedOptions({ sellers: 10, experiences: 9 }, NOW)).toThrow(SeedUsageError);
  });
});

describe('sundayBefore', () => {
  it('is the Sunday on or before the day that many days back (UTC)', () => {
    expect(sundayBefore(new Date('2024-01-07T23:59:59Z'), 0)).toBe('2024-01-07');
    expect(sundayBefore(new Date('2024-01-13T00:00:00Z'), 0)).toBe('2024-01-07');
    expect(sundayBefore(new Date('2024-01-14T00:00:00Z'), 7)).toBe('2024-01-07');
    expect(sundayBefore(NOW, 365)).toBe('2024-06-09');
  });
});
