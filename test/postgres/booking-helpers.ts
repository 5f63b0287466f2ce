/**
 * Helpers for the booking concurrency suite: sellers, experiences and events made through
 * the public API, bookings and cancellations fired through `app.inject`, a bounded-
 * concurrency runner, tallies of responses, and the ledger checks read straight from the
 * database (seats reserved against confirmed items, order status against item statuses).
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../../src/db/database.js';
import { as, signUp, type Account } from '../helpers/app.js';
import { databaseUrl } from '../helpers/database.js';
import { runPool } from '../helpers/pool.js';
export { runPool };

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

/**
 * A connection of its own to the app's database, for the checks: it neither competes with
 * the app's pool during a run nor hangs with it if the app's requests get stuck.
 */
export interface Observer {
  query<R extends object>(text: string, values?: unknown[]): Promise<R[]>;
  /** What every other session of the database is doing: for messages about stuck runs. */
  activity(): Promise<string>;
  close(): Promise<void>;
}

export async function observe(db: Db): Promise<Observer> {
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(db);
  const client = new pg.Client({ connectionString: databaseUrl(rows[0]!.name) });
  await client.connect();
  const query = async <R extends object>(text: string, values: unknown[] = []) =>
    (await client.query<R>(text, values)).rows;
  return {
    query,
    activity: async () =>
      (
        await query<{ line: string }>(
          `select concat_ws(' | ', state, wait_event_type || ':' || wait_event,
             'in transaction for ' || (now() - xact_start)::text, left(query, 100)) as line
           from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
        )
      )
        .map((r) => r.line)
        .join('\n'),
    close: () => client.end(),
  };
}

/**
 * `promise`, or a failure after `ms` that says what the database sessions were doing: a
 * request that never answers (pool starvation, a lock wait) fails the test with a reason
 * instead of a bare timeout.
 */
export async function within<T>(
  observer: Observer,
  label: string,
  promise: Promise<T>,
  ms = 20_000,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void observer.activity().then(
        (sessions) =>
          reject(new Error(`${label}: no answer within ${ms} ms; sessions:\n${sessions}`)),
        (error: unknown) =>
          reject(new Error(`${label}: no answer within ${ms} ms (${String(error)})`)),
      );
    }, ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export interface EventLedger {
  id: string;
  max: number | null;
  reserved: number;
  /** Sum of the quantities of the items holding seats (status below 300) on the event. */
  confirmedSeats: number;
  confirmedItems: number;
  canceledItems: number;
}

/** Seats reserved on each event next to what its confirmed order items add up to. */
export async function ledger(observer: Observer, eventIds: string[]): Promise<EventLedger[]> {
  return observer.query<EventLedger>(
    `select e.id, e.max, e.reserved,
       coalesce(sum(i.quantity) filter (where i.status < 300), 0)::int as "confirmedSeats",
       (count(i.id) filter (where i.status < 300))::int as "confirmedItems",
       (count(i.id) filter (where i.status = 700))::int as "canceledItems"
     from events e left join order_items i on i.event_id = e.id
     where e.id = any($1)
     group by e.id order by e.id`,
    [eventIds],
  );
}

/**
 * Orders whose status disagrees with their items (docs/booking.md: canceled when no item
 * holds seats, confirmed otherwise) or that have no items at all. Empty when consistent.
 */
export async function inconsistentOrders(observer: Observer): Promise<object[]> {
  return observer.query(
    `select o.id, o.status, array_agg(i.status order by i.id) as item_statuses
     from orders o left join order_items i on i.order_id = o.id
     group by o.id, o.status
     having count(i.id) = 0
       or o.status <> case when bool_or(i.status < 300) then 'confirmed' else 'canceled' end`,
  );
}

/** Events of the whole database whose reserved count differs from their confirmed seats. */
export async function unbalancedEvents(observer: Observer): Promise<EventLedger[]> {
  const ids = await observer.query<{ id: string }>('select id from events');
  const all = await ledger(
    observer,
    ids.map((r) => r.id),
  );
  return all.filter(
    (e) => e.reserved !== e.confirmedSeats || (e.max !== null && e.reserved > e.max),
  );
}

/** Deadlocks PostgreSQL has detected in this database (its statistics lag about 1 s). */
export async function deadlocks(observer: Observer): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const [row] = await observer.query<{ n: number }>(
    'select deadlocks::int as n from pg_stat_database where datname = current_database()',
  );
  return row!.n;
}
