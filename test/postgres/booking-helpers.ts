/**
 * Helpers for the booking concurrency suite: sellers, experiences and events made through
 * the public API, bookings and cancellations fired through `app.inject`, a bounded-
 * concurrency runner, tallies of responses, and the ledger checks read straight from the
 * database (seats reserved against confirmed items, order status against item statuses).
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { as, signUp, type Account } from '../helpers/app.js';

/** A date far enough ahead that no departure of the suite ever starts during a run. */
export const FUTURE = '2030-06-01';
export const DEPARTURE = 900;

/** A seller with an experience bookable every day at 09:00 and 15:00 (UTC). */
export async function createExperience(
  app: FastifyInstance,
  seller: Account,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const response = await as(app, seller, {
    method: 'POST',
    url: '/api/experiences',
    payload: {
      name: 'Harbour Kayak',
      price: 40,
      priceType: 'person',
      currency: 'USD',
      duration: 120,
      timezone: 'UTC',
      group: { outingMax: 1000 },
      schedules: [
        {
          type: 'available',
          repeat: 'weekly',
          days: [0, 1, 2, 3, 4, 5, 6],
          times: [DEPARTURE, 1500],
        },
      ],
      ...fields,
    },
  });
  if (response.statusCode !== 201) throw new Error(`experience not created: ${response.body}`);
  return response.json().id as string;
}

/** Creates (or updates) the event at `arrival` `time` with `max` seats: POST /api/events. */
export async function upsertEvent(
  app: FastifyInstance,
  seller: Account,
  experienceId: string,
  max: number | null,
  arrival = FUTURE,
  time = DEPARTURE,
): Promise<{ id: string; max: number | null; quantity: { reserved: number } }> {
  const hh = String(Math.floor(time / 100)).padStart(2, '0');
  const mm = String(time % 100).padStart(2, '0');
  const response = await as(app, seller, {
    method: 'POST',
    url: '/api/events',
    payload: { experience: { id: experienceId }, start: `${arrival}T${hh}:${mm}:00Z`, max },
  });
  if (response.statusCode !== 201) throw new Error(`event not upserted: ${response.body}`);
  return response.json();
}

export async function customers(app: FastifyInstance, count: number): Promise<Account[]> {
  const accounts: Account[] = [];
  for (let i = 0; i < count; i++) accounts.push(await signUp(app, { name: `Customer ${i}` }));
  return accounts;
}

export const item = (
  experienceId: string,
  arrival = FUTURE,
  arrivalTime = DEPARTURE,
  quantity = 1,
) => ({
  experience: { id: experienceId },
  arrival,
  arrivalTime,
  quantity,
});

export type Item = ReturnType<typeof item>;

export function book(
  app: FastifyInstance,
  account: Account,
  items: Item[],
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return as(app, account, { method: 'POST', url: '/api/orders', payload: { items }, headers });
}

export function cancel(
  app: FastifyInstance,
  account: Account,
  orderId: string,
): Promise<LightMyRequestResponse> {
  return as(app, account, { method: 'POST', url: `/api/orders/${orderId}/cancel` });
}

/** Runs `tasks` with at most `concurrency` in flight; results in the order of `tasks`. */
export async function runPool<T>(tasks: (() => Promise<T>)[], concurrency: number): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, worker));
  return results;
}

/** Awaits `run` and reports how long it took. */
export async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await run();
  return { result, ms: performance.now() - started };
}

/** "201 x10, 409 capacity_exceeded x190": status codes, with the problem code of errors. */
export function tally(responses: LightMyRequestResponse[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const response of responses) {
    const key =
      response.statusCode < 400
        ? String(response.statusCode)
        : `${response.statusCode} ${String(safeJson(response)?.code)}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

function safeJson(response: LightMyRequestResponse): Record<string, unknown> | undefined {
  try {
    return response.json();
  } catch {
    return undefined;
  }
}

/** The bodies of every 5xx, so a failing assertion shows what the server said. */
export const serverErrors = (responses: LightMyRequestResponse[]) =>
  responses.filter((r) => r.statusCode >= 500).map((r) => `${r.statusCode} ${r.body}`);

/** One line the lead can quote: attempts, outcomes, wall time, rate. */
export function report(
  label: string,
  attempts: number,
  ms: number,
  counts: Record<string, number>,
): void {
  const rate = (attempts / ms) * 1000;
  // eslint-disable-next-line no-console -- these numbers are the suite's report
  console.log(
    `[booking-concurrency] ${label}: ${attempts} requests in ${ms.toFixed(0)} ms ` +
      `(${rate.toFixed(0)}/s) ${JSON.stringify(counts)}`,
  );
}

export interface EventLedger {
  id: string;
  max: number | null;
  reserved: number;
  /** Sum of the quantities of confirmed (200) items on the event. */
  confirmedSeats: number;
  confirmedItems: number;
  canceledItems: number;
}

/** Seats reserved on each event next to what its confirmed order items add up to. */
export async function ledger(db: Db, eventIds: string[]): Promise<EventLedger[]> {
  const { rows } = await sql<{
    id: string;
    max: number | null;
    reserved: number;
    confirmed_seats: number;
    confirmed_items: number;
    canceled_items: number;
  }>`
    select e.id, e.max, e.reserved,
      coalesce(sum(i.quantity) filter (where i.status = 200), 0)::int as confirmed_seats,
      count(i.id) filter (where i.status = 200)::int as confirmed_items,
      count(i.id) filter (where i.status = 700)::int as canceled_items
    from events e left join order_items i on i.event_id = e.id
    where e.id in (${sql.join(eventIds)})
    group by e.id order by e.id`.execute(db);
  return rows.map((r) => ({
    id: r.id,
    max: r.max,
    reserved: r.reserved,
    confirmedSeats: r.confirmed_seats,
    confirmedItems: r.confirmed_items,
    canceledItems: r.canceled_items,
  }));
}

/**
 * Orders whose status disagrees with their items (a confirmed order must have only 200
 * items, a canceled one only 700 items) or that have no items at all. Empty when consistent.
 */
export async function inconsistentOrders(db: Db): Promise<unknown[]> {
  const { rows } = await sql`
    select o.id, o.status, array_agg(i.status order by i.id) as item_statuses
    from orders o left join order_items i on i.order_id = o.id
    group by o.id, o.status
    having count(i.id) = 0
      or (o.status = 'confirmed' and bool_or(i.status <> 200))
      or (o.status = 'canceled' and bool_or(i.status <> 700))`.execute(db);
  return rows;
}

/** Every event of the database, checked: reserved equals confirmed seats and fits in max. */
export async function allEventsBalanced(db: Db): Promise<EventLedger[]> {
  const { rows } = await sql<{ id: string }>`select id from events`.execute(db);
  if (rows.length === 0) return [];
  const all = await ledger(
    db,
    rows.map((r) => r.id),
  );
  return all.filter(
    (e) => e.reserved !== e.confirmedSeats || (e.max !== null && e.reserved > e.max),
  );
}
