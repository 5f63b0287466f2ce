/**
 * A page of a big departure's manifest costs a page, not the departure, in the window that
 * marks each order's first guest (src/modules/orders/guests.repository.ts `manifestPage`,
 * docs/performance.md): PostgreSQL's plan of the page statement, run with EXPLAIN ANALYZE
 * on a departure of 10,000 guests, passes at most a page of rows (2,001) through any window.
 * Before, `row_number()` ran before the LIMIT, over every live guest of the departure
 * (100,000 rows a page of a 100,000-guest departure, spilling its sort to disk), on the
 * first page and on every later one.
 */
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueryRecorder } from '../../src/db/query-recorder.js';
import {
  guestsRepository,
  type ManifestAfter,
} from '../../src/modules/orders/guests.repository.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { book, item, openShop } from '../helpers/booking.js';

const ORDERS = 10;
const PAGE = 2001;
let t: TestApp;
let eventId = '';

beforeAll(async () => {
  t = await createTestApp();
  const shop = await openShop(t.app, { timezone: 'UTC', group: { outingMax: null } });
  for (let i = 0; i < ORDERS; i++) {
    const response = await book(t.app, shop.seller, {
      customerName: `Guest ${String(i).padStart(2, '0')}`,
      items: [item(shop.experienceId, '2030-06-01', 900, 1000)],
    });
    expect(response.statusCode, response.body).toBe(201);
    eventId = response.json().items[0].event.id;
  }
  await sql`analyze`.execute(t.database.db);
}, 120_000);
afterAll(async () => t?.close());

interface PlanNode {
  'Node Type': string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

/** The rows each window of the page statement's plan passed (all its loops). */
async function windowRows(after: ManifestAfter | null): Promise<number[]> {
  const [statement] = await createQueryRecorder().record((db) =>
    guestsRepository(db).atEvent(eventId, {
      now: new Date(),
      after,
      limit: PAGE,
      notesChars: 1000,
    }),
  );
  const { rows } = await t.database.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    CompiledQuery.raw(`explain (analyze, format json) ${statement!.sql}`, [
      ...statement!.parameters,
    ]),
  );
  const windows: number[] = [];
  const walk = (node: PlanNode) => {
    if (node['Node Type'] === 'WindowAgg') windows.push(node['Actual Rows'] * node['Actual Loops']);
    node.Plans?.forEach(walk);
  };
  walk(rows[0]!['QUERY PLAN'][0].Plan);
  return windows;
}

describe("a manifest page's plan on a big departure", () => {
  it('marks the first guest of each order among the page only, on the first page and a late one', async () => {
    const first = await guestsRepository(t.database.db).atEvent(eventId, {
      now: new Date(),
      after: null,
      limit: PAGE,
      notesChars: 1000,
    });
    expect(first.counts.booked).toBe(ORDERS * 1000);
    expect(first.rows).toHaveLength(PAGE);
    // Each order's notes on its first guest of the page: orders 00, 01 and 02.
    expect(first.rows.filter((r) => r.notes !== null).map((r) => r.customer_name)).toEqual([
      'Guest 00',
      'Guest 01',
      'Guest 02',
    ]);
    const windows = await windowRows(null);
    expect(windows.length).toBeGreaterThan(0);
    expect(Math.max(...windows)).toBeLessThanOrEqual(PAGE);
    const last = first.rows.at(-1)!;
    const late = await windowRows({
      key: {
        customerName: 'Guest 05',
        orderId: last.order_id,
        itemPosition: 0,
        position: 500,
        id: last.id,
      },
    });
    expect(Math.max(...late)).toBeLessThanOrEqual(PAGE);
  });
});
