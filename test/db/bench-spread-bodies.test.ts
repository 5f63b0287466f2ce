/**
 * The bench's spread bookings (bench/bookings.ts) never land on the one-event scenario's
 * departures: that scenario counts its event's seats exactly against its own 201s, and one
 * spread booking there once read as 99 confirmed against 100 reserved, a false failure of
 * the no-oversell budget.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spreadBodies } from '../../bench/bookings.js';
import type { Database } from '../../src/db/database.js';
import { createTestDatabase } from '../helpers/database.js';
import { insertEvent, insertExperience, insertUser } from '../helpers/factories.js';

let database: Database;
const events: string[] = [];
/** Each event's departure date (UTC), as a spread body names it. */
const dates = new Map<string, string>();

beforeAll(async () => {
  database = await createTestDatabase();
  const sellerId = await insertUser(database.db);
  const experienceId = await insertExperience(database.db, { sellerId, timezone: 'UTC' });
  for (let day = 10; day < 13; day++) {
    const start = new Date(Date.UTC(2031, 0, day, 9, 0));
    const id = await insertEvent(database.db, { experienceId, sellerId, start, max: 100 });
    events.push(id);
    dates.set(id, start.toISOString().slice(0, 10));
  }
});
afterAll(async () => database.close());

const arrivals = (bodies: string[]) =>
  bodies.map((b) => (JSON.parse(b) as { items: { arrival: string }[] }).items[0]!.arrival);

describe('spreadBodies', () => {
  it('offers every bookable departure when none is excluded', async () => {
    const bodies = await spreadBodies(database.db, 10, []);
    expect(arrivals(bodies).sort()).toEqual([...dates.values()].sort());
  });

  it('leaves out the excluded events', async () => {
    const [hot, ...rest] = events;
    const bodies = await spreadBodies(database.db, 10, [hot!]);
    expect(arrivals(bodies)).not.toContain(dates.get(hot!));
    expect(arrivals(bodies).sort()).toEqual(rest.map((id) => dates.get(id)!).sort());
  });
});
