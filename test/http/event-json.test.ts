/**
 * The Event view PostgreSQL builds for lists (src/modules/events/event-json.ts), sent as
 * text to reads of the latest version, against the view the service maps in Node
 * (`toEventView` from Node's zone rules, what single reads, writes and older versions
 * answer): the same JSON value for events of every shape (guides with each answer, closed
 * and opened by hand, unlimited, booked) in zones east and west of UTC on both sides of
 * their clock changes, and for any zone and start (fast-check). An event whose stored local
 * times are not of its experience's zone (the experience moved, or a release before them
 * wrote the row) is still shown right, and stored again.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsRepository } from '../../src/modules/events/events.repository.js';
import { Event, toEventView } from '../../src/modules/events/events.schemas.js';
import { fillLocalTimes } from '../../src/modules/events/new-event.js';
import { localIso } from '../../src/modules/shared/views.js';
import { as, createTestApp, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { createEvent, createGuide } from '../helpers/guides.js';

let t: TestApp;
const shops: Record<string, Shop> = {};

const ZONES = ['Europe/Paris', 'America/St_Johns', 'Asia/Kathmandu', 'UTC', 'Pacific/Chatham'];

beforeAll(async () => {
  t = await createTestApp();
  for (const timezone of ZONES) shops[timezone] = await openShop(t.app, { timezone });
});
afterAll(async () => t.close());

/** The view Node maps from the row with its zone's rules (not the stored text), as sent. */
async function nodeView(id: string): Promise<unknown> {
  const row = (await eventsRepository(t.database.db).findById(id))!;
  const view = toEventView({ ...row, local_zone: null });
  return Value.Clean(Event, JSON.parse(JSON.stringify(view)));
}

/** GET /api/events?… as the shop's seller, sorted by start: the page. */
async function listed(shop: Shop, query = 'limit=50') {
  const response = await as(t.app, shop.seller, {
    method: 'GET',
    url: `/api/events?experience=${shop.experienceId}&sort=start&${query}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  return response.json<{ data: { id: string; start: string }[]; paging: unknown }>();
}

/** The zone an event's local times were stored in, and whether it is its experience's. */
async function stored(id: string) {
  const { rows } = await sql<{ zone: string | null; current: boolean }>`
    select e.local_zone as zone, e.local_zone is not distinct from x.timezone as current
    from events e join experiences x on x.id = e.experience_id where e.id = ${id}`.execute(
    t.database.db,
  );
  return rows[0]!;
}

describe('the event view PostgreSQL builds', () => {
  it('is the JSON value the service maps, for events of every shape and zone', async () => {
    for (const timezone of ZONES) {
      const shop = shops[timezone]!;
      const guide = await createGuide(t.app, shop.seller, shop.seller.id);
      const other = await createGuide(t.app, shop.seller, shop.seller.id, { name: 'Olly' });
      // Both sides of each zone's clock change; one by booking, the others made by hand.
      const made = [
        await createEvent(t.app, shop.seller, shop.experienceId, '2030-01-15T09:00', {
          guides: [guide.id, other.id],
        }),
        await createEvent(t.app, shop.seller, shop.experienceId, '2030-07-15T14:00', {
          max: null,
        }),
        await createEvent(t.app, shop.seller, shop.experienceId, '2030-11-03T09:00'),
      ];
      const booked = await book(t.app, shop.seller, {
        customerName: 'Pat Guest',
        items: [item(shop.experienceId, '2030-03-30', 900, 2)],
      });
      expect(booked.statusCode, booked.body).toBe(201);
      const closed = await as(t.app, shop.seller, {
        method: 'PATCH',
        url: `/api/events/${made[2]!.id}`,
        payload: { manual: false },
      });
      expect(closed.statusCode, closed.body).toBe(200);
      await sql`update events set guide_statuses = ${JSON.stringify({ [other.id]: 'declined' })}::jsonb
        where id = ${made[0]!.id}`.execute(t.database.db);

      for (const event of [...made, { id: booked.json().items[0].event.id }])
        expect((await stored(event.id)).current).toBe(true);
      const page = await listed(shop);
      expect(page.data).toHaveLength(4);
      for (const event of page.data) expect(event).toEqual(await nodeView(event.id));
      const [first] = page.data as unknown as { guides: { status: string }[] }[];
      expect(first!.guides.map((g) => g.status)).toEqual(['confirmed', 'declined']);
    }
  });

  it('pages, counts and answers an empty page as the mapped list does', async () => {
    const shop = shops['Europe/Paris']!;
    const first = await listed(shop, 'limit=2&count=true');
    expect(first.data).toHaveLength(2);
    expect(first.paging).toEqual({ next: expect.stringContaining('/api/events?'), total: 4 });
    for (const event of first.data) expect(event).toEqual(await nodeView(event.id));
    const none = await as(t.app, shop.seller, {
      method: 'GET',
      url: `/api/events?experience=${shop.experienceId}&start[range]=2040-01-01,2040-01-02`,
    });
    expect(none.body).toBe('{"data":[],"paging":{"next":null}}');
    // An older version's shape is still mapped in Node: bare guide ids before 2018-06-26,
    // those who declined left out.
    const older = await as(t.app, shop.seller, {
      method: 'GET',
      url: `/api/events?experience=${shop.experienceId}&sort=start`,
      headers: { 'x-api-version': '2018-03-01' },
    });
    expect(older.statusCode).toBe(200);
    expect(older.json().data[0].guides).toEqual([expect.any(String)]);
  });

  it('shows the new zone when the experience moves, and stores it again', async () => {
    const shop = await openShop(t.app, { timezone: 'Europe/Paris' });
    const event = await createEvent(t.app, shop.seller, shop.experienceId, '2030-07-15T09:00');
    expect(event.start).toBe('2030-07-15T09:00:00+02:00');
    const moved = await as(t.app, shop.seller, {
      method: 'PUT',
      url: `/api/experiences/${shop.experienceId}`,
      payload: { timezone: 'America/New_York' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await stored(event.id)).toEqual({ zone: 'Europe/Paris', current: false });

    const page = await listed(shop);
    expect(page.data[0]!.start).toBe('2030-07-15T03:00:00-04:00');
    expect(page.data[0]).toEqual(await nodeView(event.id));
    expect(await stored(event.id)).toEqual({ zone: 'America/New_York', current: true });
    // Stored now: the next page is PostgreSQL's text, the same.
    expect((await listed(shop)).data).toEqual(page.data);
  });

  it('shows and stores the events an older release wrote without local times', async () => {
    const shop = await openShop(t.app, { timezone: 'Asia/Kathmandu' });
    const event = await createEvent(t.app, shop.seller, shop.experienceId, '2030-02-01T14:00');
    await sql`update events set local_zone = null, local_start = null, local_end = null
      where id = ${event.id}`.execute(t.database.db);
    const single = await as(t.app, shop.seller, { method: 'GET', url: `/api/events/${event.id}` });
    expect(single.json().start).toBe('2030-02-01T14:00:00+05:45');
    const page = await listed(shop);
    expect(page.data).toEqual([single.json()]);
    expect((await stored(event.id)).current).toBe(true);
  });

  it('answers the page when storing its local times fails, and stores them on a later read', async () => {
    const shop = await openShop(t.app, { timezone: 'America/St_Johns' });
    const event = await createEvent(t.app, shop.seller, shop.experienceId, '2030-02-01T14:00');
    const db = t.database.db;
    await sql`update events set local_zone = null where id = ${event.id}`.execute(db);
    await sql`create function refuse_local_times() returns trigger language plpgsql as $$
      begin raise exception 'refused'; end $$`.execute(db);
    await sql`create trigger refuse_local_times before update of local_zone on events
      for each row execute function refuse_local_times()`.execute(db);
    try {
      const logged = t.logs.length;
      const page = await listed(shop);
      expect(page.data).toEqual([await nodeView(event.id)]);
      expect(await stored(event.id)).toEqual({ zone: null, current: false });
      // Logged as a warning with the database's message, not swallowed.
      const warnings = t.logs
        .slice(logged)
        .map(
          (line) => JSON.parse(line) as { level: number; msg: string; err?: { message: string } },
        )
        .filter((line) => line.msg.startsWith('events: local times not stored'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.level).toBe(40);
      expect(warnings[0]!.err?.message).toContain('refused');
    } finally {
      await sql`drop trigger refuse_local_times on events`.execute(db);
      await sql`drop function refuse_local_times()`.execute(db);
    }
    expect((await listed(shop)).data).toEqual([await nodeView(event.id)]);
    expect((await stored(event.id)).current).toBe(true);
  });

  it('fills every stale event in batches, and changes no stamp', async () => {
    const shop = await openShop(t.app, { timezone: 'Pacific/Chatham' });
    const ids = [];
    for (const day of ['01', '02', '03', '04', '05'])
      ids.push(
        (await createEvent(t.app, shop.seller, shop.experienceId, `2030-04-${day}T09:00`)).id,
      );
    await sql`update events set local_zone = 'UTC' where id in (${sql.join(ids)})`.execute(
      t.database.db,
    );
    const stamps = sql<{ updated_at: Date }>`select updated_at from events
      where id in (${sql.join(ids)}) order by id`;
    const before = (await stamps.execute(t.database.db)).rows;
    expect(await fillLocalTimes(t.database.db, undefined, 2)).toBeGreaterThanOrEqual(5);
    expect(await fillLocalTimes(t.database.db)).toBe(0);
    expect((await stamps.execute(t.database.db)).rows).toEqual(before);
    for (const id of ids)
      expect(await stored(id)).toEqual({ zone: 'Pacific/Chatham', current: true });
  });

  it("writes any event's local start and end as Luxon does, in any zone", async () => {
    const shop = await openShop(t.app, { timezone: 'UTC' });
    const event = await createEvent(t.app, shop.seller, shop.experienceId, '2030-06-01T09:00');
    const zones = Intl.supportedValuesOf('timeZone');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...zones, 'UTC'),
        fc.integer({ min: 0, max: 52_000_000 }).map((m) => new Date(m * 60_000)),
        async (zone, start) => {
          const end = new Date(start.getTime() + 90 * 60_000);
          await sql`update experiences set timezone = ${zone} where id = ${shop.experienceId}`.execute(
            t.database.db,
          );
          await sql`update events set starts_at = ${start}, ends_at = ${end}, local_zone = null
            where id = ${event.id}`.execute(t.database.db);
          await listed(shop); // stores the local times from Node's rules
          const [shown] = (await listed(shop)).data as unknown as { start: string; end: string }[];
          expect(shown).toMatchObject({ start: localIso(start, zone), end: localIso(end, zone) });
        },
      ),
      { numRuns: 40 },
    );
  });
});
