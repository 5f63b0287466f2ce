/**
 * Booking scenarios (POST /api/orders as a customer, one seat each):
 *
 * - spread: in turn over thousands of future departures that have room (existing events
 *   of visible experiences), as a busy marketplace sees them;
 * - one event: every request aimed at one departure with 100 seats, made for each run by
 *   the seller (POST /api/events): a hundred confirm, the rest are refused with 409.
 *
 * Afterwards the events are checked: no event holds more than its capacity, and each
 * holds exactly the seats of its confirmed items; for the one event, exactly as many
 * bookings were confirmed (201) as it has seats reserved.
 */
import { sql } from 'kysely';
import type { Db } from '../src/db/database.js';
import { departuresOn } from '../src/modules/schedules/departures.js';
import { localToInstant } from '../src/modules/schedules/local-time.js';
import { addDays, type Schedule } from '../src/modules/schedules/schedule.rules.js';
import { api, type Credentials } from './accounts.js';

export interface BookingRun {
  bodies: string[];
  /** The one event every booking of the run aims at, when there is one. */
  eventId?: string;
}

export interface BookingScenario {
  kind: 'booking';
  name: string;
  apiKey: string;
  /** One per connection count: each run books its own departures. */
  runs: BookingRun[];
}

const HOT_CAPACITY = 100;
/** Departures per spread run: more than a run books, each with room for two. */
const SPREAD_PER_RUN = 20_000;

const body = (experience: string, arrival: string, arrivalTime: number) =>
  JSON.stringify({
    items: [{ experience: { id: experience }, arrival, arrivalTime, quantity: 1 }],
  });

/**
 * Future departures with at least two open seats, not closed by hand (the seeders close a
 * few: a booking there is rightly refused), interleaved across experiences, none of the
 * events in `excluding`: the one-event scenario's own departures, whose seats it counts
 * exactly (one spread booking there showed as 99 confirmed against 100 reserved).
 */
export async function spreadBodies(
  db: Db,
  count: number,
  excluding: readonly string[],
): Promise<string[]> {
  const { rows } = await sql<{ experience_id: string; arrival: string; arrival_time: number }>`
    select e.experience_id,
           to_char(e.starts_at at time zone x.timezone, 'YYYY-MM-DD') as arrival,
           to_char(e.starts_at at time zone x.timezone, 'HH24MI')::int as arrival_time
    from events e join experiences x on x.id = e.experience_id
    where x.visible and e.starts_at > now() + interval '2 days'
      and (e.max is null or e.max - e.reserved >= 2) and e.manual is not false
      and not (e.id = any(${[...excluding]}::text[]))
    order by md5(e.id)
    limit ${count}`.execute(db);
  if (rows.length < count / 10) throw new Error(`only ${rows.length} bookable departures found`);
  return rows.map((r) => body(r.experience_id, r.arrival, r.arrival_time));
}

/**
 * New events with HOT_CAPACITY seats, one per run, on the departures that follow every
 * seeded one (so they are fresh, and a later run's clean-up can remove them).
 */
async function hotEvents(
  db: Db,
  baseUrl: string,
  credentials: Credentials,
  count: number,
): Promise<{ id: string; body: string }[]> {
  const { rows } = await sql<{ id: string; schedules: Schedule[]; timezone: string; last: Date }>`
    select x.id, x.schedules, x.timezone, (select max(starts_at) from events) as last
    from experiences x where x.seller_id = ${credentials.sellerId} and x.visible
    order by x.id limit 1`.execute(db);
  const experience = rows[0]!;
  const events: { id: string; body: string }[] = [];
  let date = experience.last.toISOString().slice(0, 10);
  for (let day = 0; events.length < count && day < 366; day++) {
    date = addDays(date, 1);
    const [time] = departuresOn(experience.schedules, date);
    const start = time === undefined ? undefined : localToInstant(date, time, experience.timezone);
    if (time === undefined || !start) continue;
    const event = await api<{ id: string }>(baseUrl, 'POST', '/api/events', credentials.sellerKey, {
      experience: { id: experience.id },
      start: start.toISOString(),
      max: HOT_CAPACITY,
    });
    events.push({ id: event.id, body: body(experience.id, date, time) });
  }
  if (events.length < count) throw new Error(`experience ${experience.id} has too few departures`);
  return events;
}

/** The two booking scenarios, with what each of `runs` runs books (nothing shared). */
export async function bookingScenarios(
  db: Db,
  baseUrl: string,
  credentials: Credentials,
  runs: number,
  onEventsCreated: (ids: string[]) => Promise<void>,
): Promise<BookingScenario[]> {
  const hot = await hotEvents(db, baseUrl, credentials, runs);
  const hotIds = hot.map((e) => e.id);
  await onEventsCreated(hotIds);
  const spread = await spreadBodies(db, SPREAD_PER_RUN * runs, hotIds);
  const share = Math.floor(spread.length / runs);
  return [
    {
      kind: 'booking',
      name: 'POST /api/orders spread',
      apiKey: credentials.customerKey,
      runs: Array.from({ length: runs }, (_, i) => ({
        bodies: spread.slice(i * share, (i + 1) * share),
      })),
    },
    {
      kind: 'booking',
      name: 'POST /api/orders one event',
      apiKey: credentials.customerKey,
      runs: hot.map((e) => ({ bodies: [e.body], eventId: e.id })),
    },
  ];
}

export interface Oversell {
  /** Events holding more seats than their capacity (must be 0). */
  overCapacity: number;
  /** Events whose reserved seats differ from their confirmed items' seats (must be 0). */
  mismatched: number;
  /** The one event: seats reserved, for comparison with the confirmed bookings. */
  reserved?: number;
  max?: number | null;
}

/** Checks every event the customer booked (and the one event, if given). */
export async function checkOversell(
  db: Db,
  customerId: string,
  eventId?: string,
): Promise<Oversell> {
  const { rows } = await sql<{ over: number; mismatched: number }>`
    with booked as (select distinct event_id from order_items where customer_id = ${customerId})
    select count(*) filter (where e.max is not null and e.reserved > e.max)::int as over,
           count(*) filter (where e.reserved <> coalesce(
             (select sum(quantity) from order_items i
              where i.event_id = e.id and i.status < 300), 0))::int as mismatched
    from events e where e.id in (select event_id from booked)`.execute(db);
  const result: Oversell = { overCapacity: rows[0]!.over, mismatched: rows[0]!.mismatched };
  if (eventId) {
    const { rows: hot } = await sql<{ reserved: number; max: number | null }>`
      select reserved, max from events where id = ${eventId}`.execute(db);
    Object.assign(result, hot[0]);
  }
  return result;
}
