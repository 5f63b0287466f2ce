/**
 * Flags of `npm run bench` (bench scripts read their own flags and environment; the
 * service's settings go to the server through its environment).
 *
 *   --quick           100,000 orders and short runs (the whole bench in under five minutes)
 *   --json            print the JSON report on stdout (progress stays on stderr)
 *   --duration S      seconds per measured run (default 10, quick 3)
 *   --connections L   comma list (default 8,64)
 *   --only A,B        run only the scenarios whose name contains A or B; `floor` runs the
 *                     comparison with the floor server (bench/floor.ts), `floor:T` only its
 *                     questions whose name contains T
 *   --orders N        data size (default 1,000,000, quick 100,000); --sellers N (1000)
 *   --seed N          seed of the data generator (default 1)
 *   --pool N          DATABASE_POOL_SIZE of the server (default: the service's own)
 *   --no-build        use dist/ as it is
 *   --out DIR         where reports go (default bench/results)
 *   --peer directus   also ask Directus the three shared questions (bench/peer-directus.ts)
 *
 * The database: BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/booking_bench
 * (booking_bench_quick with --quick). It is created when missing and seeded when it does not
 * hold the wanted data.
 */
import { parseArgs } from 'node:util';

export interface BenchOptions {
  quick: boolean;
  json: boolean;
  durationSec: number;
  warmupSec: number;
  connections: number[];
  only: string | undefined;
  orders: number;
  sellers: number;
  seed: number;
  poolSize: number | undefined;
  build: boolean;
  outDir: string;
  databaseUrl: string;
  peer: 'directus' | undefined;
}

/** Whether `--only` (comma-separated parts of names) picks the scenario `name`; no --only: all. */
export const onlyPicks = (only: string | undefined, name: string): boolean =>
  !only || only.split(',').some((part) => name.includes(part));

/** Quick runs keep their smaller data set in a database of their own: no re-seeding back and forth. */
const defaultUrl = (quick: boolean) =>
  `postgres://postgres@127.0.0.1:5432/booking_bench${quick ? '_quick' : ''}`;

function positive(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text.replace(/_/g, ''));
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

export function benchOptions(args: string[], env: NodeJS.ProcessEnv): BenchOptions {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      quick: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      duration: { type: 'string' },
      connections: { type: 'string' },
      only: { type: 'string' },
      orders: { type: 'string' },
      sellers: { type: 'string' },
      seed: { type: 'string' },
      pool: { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      out: { type: 'string', default: 'bench/results' },
      peer: { type: 'string' },
    },
  });
  const quick = values.quick;
  if (values.peer !== undefined && values.peer !== 'directus')
    throw new Error('--peer: the only peer is directus');
  const durationSec = positive('duration', values.duration) ?? (quick ? 3 : 10);
  return {
    quick,
    json: values.json,
    durationSec,
    // JIT, pool connections and the database's caches settle before anything is measured.
    warmupSec: quick ? 1 : 3,
    connections: (values.connections ?? '8,64').split(',').map((c) => {
      const n = positive('connections', c);
      if (!n || !Number.isInteger(n)) throw new Error('--connections is a comma list of integers');
      return n;
    }),
    only: values.only,
    orders: positive('orders', values.orders) ?? (quick ? 100_000 : 1_000_000),
    sellers: positive('sellers', values.sellers) ?? 1000,
    seed: values.seed === undefined ? 1 : Number(values.seed),
    poolSize: positive('pool', values.pool),
    build: !values['no-build'],
    outDir: values.out,
    databaseUrl: env.BENCH_DATABASE_URL || defaultUrl(quick),
    peer: values.peer === 'directus' ? 'directus' : undefined,
  };
}
