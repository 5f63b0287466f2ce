/**
 * Races on a shared boat that only real row locks show (PostgreSQL; docs/resources.md): a
 * plain connection of the test's own holds a row lock, so that one request waits at a known
 * point while another runs, and the outcome must be what the rules say. A booking that read
 * its experience before the experience stopped using the boat leaves nothing held of it; an
 * event upsert decides from the event as locked, so a booking that took seats over the old
 * window is moved to the new one (or the upsert refused); a resource is not deleted while an
 * experience attaches it. The same rules without a race: test/http/resource-races.test.ts.
 */
import type pg from 'pg';
import { openLocker, waitingOnLock } from '../helpers/lock-waits.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { book } from '../helpers/booking.js';
import { createBoat, createExperienceOn } from '../helpers/resources.js';

let t: TestApp;
let seller: Account;
let customer: Account;
let locker: pg.Client;

beforeAll(async () => {
  t = await createTestApp();
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  customer = await signUp(t.app);
  locker = await openLocker(t.database);
});
afterAll(async () => {
  await locker.end();
  await t.close();
});

const ARRIVAL = '2030-08-01';

const boat = (name?: string) => createBoat(t.app, seller, 10, name);
const experience = (boatId: string, duration = 60, time = 900) =>
  createExperienceOn(t.app, seller, [{ resource: { id: boatId } }], { duration, times: [time] });

const bookOn = (experienceId: string, quantity: number, arrivalTime = 900) =>
  book(t.app, customer, {
    items: [{ experience: { id: experienceId }, arrival: ARRIVAL, arrivalTime, quantity }],
  });

async function held(resourceId: string): Promise<number> {
  const { rows } = await locker.query<{ seats: number }>(
    'select coalesce(sum(seats), 0)::int as seats from resource_seats where resource_id = $1',
    [resourceId],
  );
  return rows[0]!.seats;
}

const waiting = (count: number) => waitingOnLock(locker, count);

/**
 * Holds a row lock from the test's own connection while `during` runs, then lets go. What
 * `during` starts and must not be awaited under the lock goes back in a tuple (a promise
 * returned as such would be awaited here).
 */
async function holding<T>(lock: string, values: unknown[], during: () => Promise<T>): Promise<T> {
  await locker.query('begin');
  try {
    await locker.query(lock, values);
    return await during();
  } finally {
    await locker.query('commit');
  }
}

describe('an experience changing its resources while bookings are in flight', () => {
  it('a booking that read the boat on the experience holds nothing once the experience drops it', async () => {
    const id = await boat();
    const x = await experience(id);
    const y = await experience(id);
    expect((await bookOn(x, 2)).statusCode).toBe(201);
    // The booking has read X (with the boat) and waits for the boat's lock; X drops the boat.
    const [booked, dropped] = await holding(
      'select * from resources where id = $1 for update',
      [id],
      async () => {
        const booking = bookOn(x, 3);
        await waiting(1);
        const put = as(t.app, seller, {
          method: 'PUT',
          url: `/api/experiences/${x}`,
          payload: { resources: [] },
        });
        await waiting(2);
        return [booking, put] as const;
      },
    );
    expect((await booked).statusCode).toBe(201);
    const put = await dropped;
    expect(put.statusCode, put.body).toBe(200);
    expect(await held(id)).toBe(0);
    const other = await bookOn(y, 10);
    expect(other.statusCode, other.body).toBe(201);
  });
});

describe('the event upsert racing a booking', () => {
  it('moves seats a booking took over the old window to the new one, or refuses the upsert', async () => {
    const id = await boat();
    const x = await experience(id, 60, 900);
    const y = await experience(id, 60, 1000);
    const guide = await as(t.app, seller, {
      method: 'POST',
      url: `/api/sellers/${seller.id}/guides`,
      payload: {
        name: 'Guide',
        email: 'guide@example.com',
        schedules: [{ type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6] }],
      },
    });
    expect(guide.statusCode, guide.body).toBe(201);
    const guideId = guide.json().id;
    const event = { experience: { id: x }, start: `${ARRIVAL}T09:00:00Z` };
    const made = await as(t.app, seller, { method: 'POST', url: '/api/events', payload: event });
    expect(made.statusCode, made.body).toBe(201);
    expect(
      (
        await as(t.app, seller, {
          method: 'PUT',
          url: `/api/experiences/${x}`,
          payload: { duration: 120 },
        })
      ).statusCode,
    ).toBe(200);
    // The upsert has read the empty event and waits for its guide; a booking lands meanwhile.
    const [upsert] = await holding(
      'select * from guides where id = $1 for update',
      [guideId],
      async () => {
        const pending = as(t.app, seller, {
          method: 'POST',
          url: '/api/events',
          payload: { ...event, guides: [guideId] },
        });
        await waiting(1);
        const booked = await bookOn(x, 5);
        expect(booked.statusCode, booked.body).toBe(201);
        return [pending] as const;
      },
    );
    const saved = await upsert;
    expect([200, 201, 409], saved.body).toContain(saved.statusCode);
    const { rows } = await locker.query<{ stale: number }>(
      `select count(*)::int as stale from resource_seats s join events e on e.id = s.event_id
        where s.resource_id = $1 and (s.starts_at <> e.starts_at or s.ends_at <> e.ends_at)`,
      [id],
    );
    expect(rows[0]!.stale).toBe(0);
    const other = await bookOn(y, 10, 1000);
    if (saved.statusCode === 409) expect(saved.json().code).toBe('resource_full');
    // X's 5 guests are aboard until 11:00 (the upsert passed) or the upsert was refused.
    expect(saved.statusCode === 409 || other.statusCode === 409).toBe(true);
  });
});

describe('deleting a resource an experience is attaching', () => {
  it('waits for the experience and is refused (409 resource_in_use)', async () => {
    const old = await boat('Old boat');
    const id = await boat('New boat');
    const x = await experience(old);
    expect((await bookOn(x, 2)).statusCode).toBe(201);
    // The PUT attaching the new boat waits on what the old boat holds; the delete runs then.
    const [attached, deleted] = await holding(
      'select * from resource_seats where resource_id = $1 for update',
      [old],
      async () => {
        const put = as(t.app, seller, {
          method: 'PUT',
          url: `/api/experiences/${x}`,
          payload: { resources: [{ resource: { id } }] },
        });
        await waiting(1);
        const del = as(t.app, seller, { method: 'DELETE', url: `/api/resources/${id}` });
        await waiting(2);
        return [put, del] as const;
      },
    );
    const put = await attached;
    const del = await deleted;
    expect(put.statusCode, put.body).toBe(200);
    expect(del.statusCode, del.body).toBe(409);
    expect(del.json().code).toBe('resource_in_use');
    expect(await held(id)).toBe(2);
  });
});
