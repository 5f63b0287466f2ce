/**
 * What the floor comparison asks (issue 27): every read scenario of the bench, as our
 * service is asked it (the largest seller's lists, the admin's deep pages, one order), and
 * the spec's two order queries once more for the median seller, whose key the admin reads
 * through the API. `--only floor` runs just this comparison, `--only floor:<text>` only
 * its questions whose names contain the text.
 */
import { sql } from 'kysely';
import type { Db } from '../src/db/database.js';
import { api, type Credentials } from './accounts.js';
import type { FloorQuestion } from './floor.js';
import { medianSeller, sellerQuestions, type ReadScenario } from './scenarios.js';

const FLOOR = 'floor';

/** Which floor questions `--only` asks for; undefined: not the floor comparison at all. */
export function floorFilter(only: string | undefined): ((name: string) => boolean) | undefined {
  if (!only) return () => true;
  const parts = only.split(',').filter((part) => part.startsWith(FLOOR));
  if (parts.length === 0) return undefined;
  return (name) =>
    parts.some((part) => part === FLOOR || name.includes(part.slice(`${FLOOR}:`.length)));
}

export async function floorQuestions(
  db: Db,
  baseUrl: string,
  credentials: Credentials,
  reads: readonly ReadScenario[],
): Promise<FloorQuestion[]> {
  const median = await medianSeller(db);
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from orders where seller_id = ${credentials.sellerId}`.execute(db);
  const largestOrders = rows[0]!.n;
  const { apiKey } = await api<{ apiKey: string }>(
    baseUrl,
    'GET',
    `/api/users/${median.id}/apiKey`,
    credentials.adminKey,
  );
  const paths = await sellerQuestions(db, median.id);
  const note = (orders: number) => `seller of ${orders.toLocaleString('en-US')} orders`;
  const medianOf: Record<string, FloorQuestion> = {
    'orders items.arrival[range]': {
      name: 'orders items.arrival[range], median seller',
      paths: [paths.window],
      apiKey,
      note: note(median.orders),
    },
    'orders customerName[contains]': {
      name: 'orders customerName[contains], median seller',
      paths: [paths.contains],
      apiKey,
      note: note(median.orders),
    },
  };
  // Each of the spec's queries for the largest seller, then for the median one.
  return reads.flatMap((read) => [
    {
      name: read.name,
      paths: read.paths,
      apiKey: read.apiKey,
      ...(read.apiKey === credentials.sellerKey && read.paths[0]!.startsWith('/api/orders?')
        ? { note: note(largestOrders) }
        : {}),
    },
    ...(medianOf[read.name] ? [medianOf[read.name]!] : []),
  ]);
}
