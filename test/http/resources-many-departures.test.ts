/**
 * Resources over many booked departures (docs/resources.md, "Bounded work"):
 *
 * - availability of departures whose week-long windows overlap hundreds of others on a
 *   boat answers what reading every window answers, and reads each window a bounded number
 *   of times, not once per departure around it (counted, not timed);
 * - giving a boat to an experience with 11,000 booked departures ahead answers 200 and
 *   holds each departure's seats (one parameter per row of six columns went past
 *   PostgreSQL's 65,535, a 500).
 *
 * Thousands of bookings through the API would take minutes, so the departures are written
 * straight to the database, each row as a booking writes it: one real booking comes first,
 * and the rows written are copies of its rows at other times.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../../src/db/ids.js';
import type { DB } from '../../src/db/types.js';
import { resourcesFacade } from '../../src/modules/resources/index.js';
import { peakIn, type Held } from '../../src/modules/resources/resource-seats.js';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { book, item } from '../helpers/booking.js';
import { createBoat, createExperienceOn, type ResourceUses } from '../helpers/resources.js';
import type { Insertable, Kysely } from 'kysely';

const MINUTE = 60_000;
const QUARTER = 15 * MINUTE;
/** Every 15 minutes of the day, as schedule times (0, 15, 30, 45, 100, ...). */
const EVERY_QUARTER = Array.from({ length: 96 }, (_, i) => Math.floor(i / 4) * 100 + (i % 4) * 15);

/**
 * An experience of `seller` departing every 15 minutes of the day (UTC), 50 seats each:
 * made at one time a day, then given all 96 (the helper names it after its times).
 */
async function everyQuarter(seller: Account, duration: number, resources: ResourceUses) {
  const id = await createExperienceOn(t.app, seller, resources, { duration, times: [0] });
  const [schedule] = (
    await as(t.app, seller, { method: 'GET', url: `/api/experiences/${id}` })
  ).json<{ schedules: Record<string, unknown>[] }>().schedules;
  const response = await as(t.app, seller, {
    method: 'PUT',
    url: `/api/experiences/${id}`,
    payload: { schedules: [{ ...schedule, id: undefined, times: EVERY_QUARTER }] },
  });
  expect(response.statusCode, response.body).toBe(200);
  return id;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** The booked event of `experienceId` (the one real booking), as a booking wrote it. */
async function bookedEvent(db: Kysely<DB>, experienceId: string) {
  const rows = await db
    .selectFrom('events')
    .selectAll()
    .where('experience_id', '=', experienceId)
    .execute();
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** Copies of `event` starting `count` quarters after it, one each, `reserved(i)` seats. */
function departuresAfter(
  event: Awaited<ReturnType<typeof bookedEvent>>,
  count: number,
  reserved: (i: number) => number,
): Insertable<DB['events']>[] {
  const length = event.ends_at.getTime() - event.starts_at.getTime();
  const text = (at: Date) => at.toISOString().replace('.000Z', 'Z');
  expect(event.local_start).toBe(text(event.starts_at));
  return Array.from({ length: count }, (_, i) => {
    const start = new Date(event.starts_at.getTime() + (i + 1) * QUARTER);
    const end = new Date(start.getTime() + length);
    return {
      ...event,
      id: newId(),
      starts_at: start,
      ends_at: end,
      reserved: reserved(i),
      guide_ids: [],
      guide_statuses: '{}',
      local_start: text(start),
      local_end: text(end),
    };
  });
}

async function insertChunked<T extends 'events' | 'resource_seats'>(
  table: T,
  rows: Insertable<DB[T]>[],
) {
  for (let i = 0; i < rows.length; i += 1000)
    await t.database.db
      .insertInto(table)
      .values(rows.slice(i, i + 1000))
      .execute();
}

describe('availability over a boat held by week-long departures every 15 minutes', () => {
  const WEEK = 10_080 * MINUTE;
  let boat: string;
  let experienceId: string;
  let held: Held[];

  beforeAll(async () => {
    const seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
    boat = await createBoat(t.app, seller, 700);
    experienceId = await everyQuarter(seller, 10_080, [{ resource: { id: boat } }]);
    const customer = await signUp(t.app);
    const booked = await book(t.app, customer, {
      items: [item(experienceId, '2030-07-01', 0, 2)],
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const event = await bookedEvent(t.database.db, experienceId);
    const [seats] = await t.database.db
      .selectFrom('resource_seats')
      .selectAll()
      .where('event_id', '=', event.id)
      .execute();
    expect(seats).toMatchObject({ resource_id: boat, seats_per_guest: 1, seats: 2 });
    // Nine days of departures, each holding one seat for a week: 700 overlap at a moment.
    const events = departuresAfter(event, 9 * 96 - 1, () => 1);
    await insertChunked('events', events);
    await insertChunked(
      'resource_seats',
      events.map((e) => ({
        ...seats!,
        event_id: e.id,
        starts_at: e.starts_at,
        ends_at: e.ends_at,
        seats: 1,
      })),
    );
    held = [event, ...events].map((e) => ({
      eventId: e.id,
      start: new Date(e.starts_at),
      end: new Date(e.ends_at),
      seats: e.reserved!,
    }));
  }, 120_000);

  /** Departures every 15 minutes over `days` from 2030-07-01, each on the boat for a week. */
  const departures = (days: number) =>
    Array.from({ length: days * 96 }, (_, i) => {
      const start = new Date(Date.UTC(2030, 6, 1) + i * QUARTER);
      return { start, end: new Date(start.getTime() + WEEK) };
    });
  /** What reading every window says the boat has room for. */
  const room = (d: { start: Date; end: Date }) => 700 - peakIn(held, d.start, d.end);

  it('shows the room that reading every window gives', async () => {
    const response = await as(t.app, null, {
      method: 'GET',
      url: `/api/experiences/${experienceId}/availability?start=2030-07-01&end=2030-07-10`,
    });
    expect(response.statusCode, response.body).toBe(200);
    const shown = response.json<Record<string, Record<string, number>>>();
    const expected: Record<string, Record<string, number>> = {};
    const reserved = new Map(held.map((h) => [h.start.getTime(), h.seats]));
    for (const d of departures(10)) {
      const [day, time] = d.start.toISOString().split('T') as [string, string];
      const at = String(Number(time.slice(0, 2)) * 100 + Number(time.slice(3, 5)));
      const own = 50 - (reserved.get(d.start.getTime()) ?? 0);
      (expected[day] ??= {})[at] = Math.min(own, room(d));
    }
    expect(shown).toEqual(expected);
    // The boat, not the departure's own seats, sets some of them.
    expect(Object.values(shown['2030-07-05']!).some((left) => left < 49)).toBe(true);
  });

  it('reads each window a bounded number of times, not once per departure it overlaps', async () => {
    const asked = departures(9).map((d, i) => ({
      key: String(i),
      ...d,
      uses: [{ id: boat, seatsPerGuest: 1 }],
    }));
    // Every instant read is a `getTime`: per window, per departure, per comparison.
    const spy = vi.spyOn(Date.prototype, 'getTime');
    let [left, reads] = [new Map<string, { left: number }>(), 0];
    try {
      left = await resourcesFacade.guestsLeft(t.database.db, asked);
      reads = spy.mock.calls.length;
    } finally {
      spy.mockRestore();
    }
    // Each departure overlaps hundreds of windows: reading them per departure is a million.
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThan(10 * (held.length + asked.length));
    for (const d of asked) expect(left.get(d.key)?.left).toBe(room(d));
  });
});

describe('an experience with 11,000 booked departures ahead is given a boat', () => {
  it('answers 200, each departure holding its booked seats times seats per guest', async () => {
    const seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
    const boat = await createBoat(t.app, seller, 100_000);
    const experienceId = await everyQuarter(seller, 10, []);
    const customer = await signUp(t.app);
    const booked = await book(t.app, customer, {
      items: [item(experienceId, '2031-01-01', 0, 3)],
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const event = await bookedEvent(t.database.db, experienceId);
    await insertChunked(
      'events',
      departuresAfter(event, 10_999, (i) => 1 + (i % 4)),
    );

    const response = await as(t.app, seller, {
      method: 'PUT',
      url: `/api/experiences/${experienceId}`,
      payload: { resources: [{ resource: { id: boat }, seatsPerGuest: 2 }] },
    });
    expect(response.statusCode, response.body).toBe(200);

    const check = () =>
      sql<{ departures: number; held: number; seats: number }>`
        select count(*)::int as departures,
               count(*) filter (where s.seats = e.reserved * 2 and s.seats_per_guest = 2
                 and s.starts_at = e.starts_at and s.ends_at = e.ends_at)::int as held,
               coalesce(sum(s.seats), 0)::int as seats
          from events e
          left join resource_seats s on s.event_id = e.id and s.resource_id = ${boat}
         where e.experience_id = ${experienceId}`.execute(t.database.db);
    const reserved =
      3 + Array.from({ length: 10_999 }, (_, i) => 1 + (i % 4)).reduce((a, b) => a + b);
    expect((await check()).rows[0]).toEqual({
      departures: 11_000,
      held: 11_000,
      seats: 2 * reserved,
    });

    // A booking afterwards takes the boat's seats as any other.
    const more = await book(t.app, customer, { items: [item(experienceId, '2031-01-01', 0, 1)] });
    expect(more.statusCode, more.body).toBe(201);
    expect((await check()).rows[0]).toEqual({
      departures: 11_000,
      held: 11_000,
      seats: 2 * reserved + 2,
    });
  }, 180_000);
});
