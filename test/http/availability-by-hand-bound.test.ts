/**
 * Availability's bound of 100,000 departures per request (docs/booking.md, "Bounded work")
 * counts the events opened by hand, not only the schedules' times: a request whose
 * experiences have more is refused with 400 naming `end`, before their events are read. OCTo's
 * calendar has the same bound (BAD_REQUEST), its availability check a tighter one.
 *
 * One event is opened by hand through the API to show the shape; the others are written
 * straight to the database with the same columns (tens of thousands of requests otherwise).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createTestApp,
  expectProblem,
  signUp,
  type Account,
  type TestApp,
} from '../helpers/app.js';
import {
  createAffiliate,
  createExperience,
  daily,
  expectOctoError,
  octo,
} from '../helpers/octo.js';
import { countStatements } from '../helpers/statement-counter.js';

let t: TestApp;
let seller: Account;
/** Every quarter of an hour: 96 departures a day, the most schedules may list. */
const QUARTERS = Array.from({ length: 96 }, (_, i) => Math.floor(i / 4) * 100 + (i % 4) * 15);
const RANGE = 'start=2030-07-01&end=2030-08-31'; // 62 dates, 63 as the bound counts them

beforeAll(async () => {
  t = await createTestApp();
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
});
afterAll(async () => t.close());

const dense = (name: string) =>
  createExperience(t.app, seller, {
    name,
    timezone: 'UTC',
    duration: 1,
    group: { outingMax: 50 },
    schedules: daily(QUARTERS),
  });

/** Opens an event by hand through the API, at `start`. */
async function openByHand(experienceId: string, start: string): Promise<void> {
  const made = await as(t.app, seller, {
    method: 'POST',
    url: '/api/events',
    payload: { experience: { id: experienceId }, start },
  });
  expect(made.statusCode, made.body).toBe(201);
  const opened = await as(t.app, seller, {
    method: 'PATCH',
    url: `/api/events/${made.json().id}`,
    payload: { manual: true },
  });
  expect(opened.statusCode, opened.body).toBe(200);
}

/**
 * `count` more events opened by hand, as the API writes them, at one minute past each
 * minute not on a quarter (so none is a scheduled departure), from 2030-07-01 00:01 UTC.
 */
async function seedOpenedByHand(experienceId: string, count: number, from = 0): Promise<void> {
  await sql`
    insert into events (id, experience_id, seller_id, starts_at, ends_at, max, reserved, manual,
                        local_zone, local_start, local_end, created_at, updated_at)
    select lpad(to_hex(${from}::int + g), 8, '0') || substr(md5(random()::text), 1, 16),
           ${experienceId}, ${seller.id}, s, s + interval '1 minute', 50, 0, true,
           'UTC', to_char(s, 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
           to_char(s + interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), now(), now()
    from generate_series(${from}::int, ${from + count - 1}::int) g,
         lateral (select timestamptz '2030-07-01 00:00:00+00'
                         + (g / 14 * 15 + g % 14 + 1) * interval '1 minute' as s) m
  `.execute(t.database.db);
}

describe('the events opened by hand count into the bound', () => {
  it('of several experiences: under the bound 200, past it 400 naming end, before the events are read', async () => {
    // 16 x 96 x 63 = 96,768 scheduled departures: under the bound.
    const ids: string[] = [];
    for (let i = 0; i < 16; i++) ids.push((await dense(`Quarterly ${i}`)).id);
    await openByHand(ids[0]!, '2030-07-01T00:01:00Z');
    await seedOpenedByHand(ids[0]!, 3_000, 1); // 99,769 in all: still answered
    const url = `/api/availability?experience=${ids.join(',')}&${RANGE}`;
    const under = await t.app.inject({ method: 'GET', url });
    expect(under.statusCode, under.body.slice(0, 300)).toBe(200);
    expect(under.json()[ids[0]!]['2030-07-01']['1']).toBe(50);

    await seedOpenedByHand(ids[1]!, 300); // 100,069
    let over: Awaited<ReturnType<typeof t.app.inject>> | undefined;
    const statements = await countStatements(async () => {
      over = await t.app.inject({ method: 'GET', url });
    });
    const body = expectProblem(over!, 400, 'validation_failed');
    expect(body.errors).toEqual([expect.objectContaining({ in: 'query', name: 'end' })]);
    // Refused on a count: no event's seats were read.
    expect(statements.filter((s) => s.includes('"reserved"'))).toEqual([]);
  }, 120_000);

  it('of one experience', async () => {
    const { id } = await dense('Every minute');
    await openByHand(id, '2030-07-01T00:01:00Z');
    // 6,048 scheduled and 83,328 opened by hand (every minute off the quarters of 62 days).
    await seedOpenedByHand(id, 62 * 1344 - 1, 1);
    // Rows stored before starts had to be whole minutes (docs/booking.md, "Events") may be
    // more than one a minute: 10,625 of them make 100,001 departures.
    await sql`
      insert into events (id, experience_id, seller_id, starts_at, ends_at, max, reserved, manual,
                          local_zone, local_start, local_end, created_at, updated_at)
      select substr(md5(random()::text), 1, 24), experience_id, seller_id,
             starts_at + interval '30 seconds', ends_at + interval '30 seconds', max, 0, true,
             local_zone, local_start, local_end, now(), now()
      from events where experience_id = ${id} order by starts_at limit 10625
    `.execute(t.database.db);
    const url = `/api/experiences/${id}/availability?${RANGE}`;
    const over = await t.app.inject({ method: 'GET', url });
    const body = expectProblem(over, 400, 'validation_failed');
    expect(body.errors).toEqual([expect.objectContaining({ in: 'query', name: 'end' })]);

    // OCTo's calendar of the same product, for a reseller: the same bound; its availability
    // check, its own tighter one, counted the same way (test/http/octo-check-by-hand-bound.test.ts).
    const reseller = await createAffiliate(t.app, seller);
    const dates = { localDateStart: '2030-07-01', localDateEnd: '2030-08-31' };
    const product = { productId: id, optionId: 'DEFAULT', ...dates };
    for (const [path, bound] of [
      ['/availability', 'at most 6000 departures'],
      ['/availability/calendar', '100000'],
    ] as const) {
      const refused = await octo(t.app, reseller.apiKey, 'POST', path, product);
      expect(expectOctoError(refused, 'BAD_REQUEST').errorMessage).toContain(bound);
    }
    // A day of it is answered: 1,440 departures.
    const day = { productId: id, optionId: 'DEFAULT', localDate: '2030-07-02' };
    const answered = await octo(t.app, reseller.apiKey, 'POST', '/availability', day);
    expect(answered.statusCode, answered.body.slice(0, 300)).toBe(200);
  }, 120_000); // 94,000 rows written
});
