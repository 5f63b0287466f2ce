/**
 * `cli seed` flags and their defaults. The defaults describe the benchmark's data set
 * (DESIGN.md section 10): 1,000 sellers, 1,000,000 orders of one to three items.
 */
import { parseArgs } from 'node:util';

export interface SeedOptions {
  sellers: number;
  /** Experiences in all; every seller has at least one, big sellers many. */
  experiences: number;
  /** Events in all, spread over the experiences' scheduled departures of two years. */
  events: number;
  /** Registered customers (about a third of the orders are theirs; the rest are guests). */
  customers: number;
  orders: number;
  /** The seed of the pseudo-random generator: the same options give the same rows. */
  seed: number;
  /**
   * First day of the two-year window of departures (a Sunday); default: the Sunday a year
   * ago, so half the departures are past and half still bookable.
   */
  from: string;
  /** Orders written per statement batch (progress is reported per batch). */
  batch: number;
  /** Empty the database first (all its data, accounts included). */
  reset: boolean;
}

export class SeedUsageError extends Error {}

const DAY_MS = 86_400_000;

/** The Sunday on or before `days` days before `now`, as YYYY-MM-DD (UTC). */
export function sundayBefore(now: Date, days: number): string {
  const at = new Date(now.getTime() - days * DAY_MS);
  at.setUTCDate(at.getUTCDate() - at.getUTCDay());
  return at.toISOString().slice(0, 10);
}

/** Seeds above this would lose precision in the RNG's stream arithmetic (sql.ts). */
const MAX_SEED = 2 ** 40;

function integer(name: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  // Digits (with _ separators) only: Number() would also take "", " ", "1e3" and "0x10".
  const value = /^\d[\d_]*$/.test(text) ? Number(text.replace(/_/g, '')) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new SeedUsageError(`--${name} must be an integer from ${min} to ${max} (got "${text}")`);
  return value;
}

/** Defaults derived from the sizes given, so `--orders 1000` alone gives a small, sane set. */
export function resolveSeedOptions(partial: Partial<SeedOptions>, now = new Date()): SeedOptions {
  const sellers = partial.sellers ?? 1000;
  const orders = partial.orders ?? 1_000_000;
  const experiences = partial.experiences ?? sellers * 5;
  if (experiences < sellers)
    throw new SeedUsageError('--experiences must be at least --sellers (one each)');
  const events = partial.events ?? experiences * 40;
  if (events < experiences)
    throw new SeedUsageError('--events must be at least --experiences (one each)');
  const from = partial.from ?? sundayBefore(now, 365);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || new Date(`${from}T00:00:00Z`).getUTCDay() !== 0)
    throw new SeedUsageError(`--from must be a Sunday written YYYY-MM-DD (got "${from}")`);
  return {
    sellers,
    experiences,
    events,
    customers: partial.customers ?? Math.max(10, Math.round(orders / 50)),
    orders,
    seed: partial.seed ?? 1,
    from,
    batch: partial.batch ?? 50_000,
    reset: partial.reset ?? false,
  };
}

export function parseSeedArgs(args: string[], now = new Date()): SeedOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      options: {
        sellers: { type: 'string' },
        experiences: { type: 'string' },
        events: { type: 'string' },
        customers: { type: 'string' },
        orders: { type: 'string' },
        seed: { type: 'string' },
        from: { type: 'string' },
        batch: { type: 'string' },
        reset: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new SeedUsageError((error as Error).message);
  }
  const optional = (name: keyof typeof values, min: number, max?: number) =>
    values[name] === undefined ? undefined : integer(name, values[name] as string, min, max);
  return resolveSeedOptions(
    {
      sellers: optional('sellers', 1),
      experiences: optional('experiences', 1),
      events: optional('events', 1),
      customers: optional('customers', 1),
      orders: optional('orders', 0),
      seed: optional('seed', 0, MAX_SEED),
      batch: optional('batch', 1),
      from: values.from,
      reset: values.reset,
    },
    now,
  );
}
