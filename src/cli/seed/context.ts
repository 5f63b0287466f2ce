/**
 * What every seeding step gets: the transaction's connection, the options, the reference
 * instant, and a runner for the generated SQL text.
 */
import { CompiledQuery } from 'kysely';
import type { Db } from '../../db/database.js';
import type { SeedOptions } from './options.js';

export interface SeedContext {
  trx: Db;
  options: SeedOptions;
  /**
   * SQL of the instant the data is "as of": the window start plus one year (today with the
   * default --from; a later --from dates orders in the future). Orders are created up to it;
   * departures after it are still bookable.
   */
  asOf: string;
  /** SQL of the window's first day (a local date, a Sunday). */
  from: string;
  /** SQL of the instant the window's first day starts in UTC (ids and timestamps use it). */
  fromUtc: string;
  run<Row = Record<string, unknown>>(text: string, parameters?: unknown[]): Promise<Row[]>;
}

export function seedContext(trx: Db, options: SeedOptions): SeedContext {
  return {
    trx,
    options,
    asOf: `(date '${options.from}' + 364)::timestamp at time zone 'UTC'`,
    from: `date '${options.from}'`,
    fromUtc: `(date '${options.from}'::timestamp at time zone 'UTC')`,
    async run<Row>(text: string, parameters: unknown[] = []) {
      const result = await trx.executeQuery<Row>(CompiledQuery.raw(text, parameters));
      return result.rows;
    },
  };
}
