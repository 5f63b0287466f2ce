/**
 * POST /octo/availability (the check) answers every departure of its range as a full
 * availability object, and with octo/pricing every unit's price too: a year of a product
 * departing every quarter of an hour with 20 units was 106 MB and 12 s of CPU, enough to take
 * a 128 MB heap down. One check answers at most MAX_CHECK_DEPARTURES departures, each price
 * counting half a departure, refused (BAD_REQUEST: ask for fewer dates) before any event is
 * read, when the schedules already say so and when the events opened by hand beside them do
 * (counted, not read). The calendar (one object per day) still answers a year.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departuresFitting, MAX_CHECK_DEPARTURES } from '../../src/modules/octo/check-bound.js';
import { MAX_AVAILABILITY_IDS } from '../../src/modules/octo/octo.bodies.js';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import {
  createAffiliate,
  createExperience,
  daily,
  expectOctoError,
  expectSpec,
  octo,
} from '../helpers/octo.js';
import { countStatements } from '../helpers/statement-counter.js';

/** Every quarter of an hour: 96 departures a day, the most schedules may list. */
const QUARTERS = Array.from({ length: 96 }, (_, i) => Math.floor(i / 4) * 100 + (i % 4) * 15);
const UNITS = 20; // the most guest types an experience may have
const PRICING = 'octo/pricing';
/** What the bound keeps the largest answer under (docs/octo.md, "Availability"). */
const MAX_CHECK_ANSWER_BYTES = 2_000_000;

let t: TestApp;
let seller: Account;
let productId: string;
let send: (
  url: string,
  body: Record<string, unknown>,
  capabilities?: string,
) => ReturnType<typeof octo>;
const check = (localDateStart: string, localDateEnd: string, capabilities?: string) =>
  send(
    '/availability',
    { productId, optionId: 'DEFAULT', localDateStart, localDateEnd },
    capabilities,
  );

beforeAll(async () => {
  t = await createTestApp();
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  productId = (
    await createExperience(t.app, seller, {
      name: 'Tower entry',
      duration: 15,
      group: { outingMax: 5000, orderMax: 10 },
      schedules: daily(QUARTERS),
      demographics: Array.from({ length: UNITS }, (_, i) => ({
        label: `Ticket type ${i}`,
        code: `type${i}`,
        price: 10.55 + i,
      })),
    })
  ).id;
  const reseller = await createAffiliate(t.app, seller); // with a commission: net prices too
  send = (url, body, capabilities) => octo(t.app, reseller.apiKey, 'POST', url, body, capabilities);
});
afterAll(() => t.close());

describe('POST /octo/availability of a product departing 96 times a day, 20 units', () => {
  it('refuses a year, with or without prices, before any event is read', async () => {
    const priced = departuresFitting(UNITS);
    for (const [capabilities, fitting] of [
      [PRICING, priced],
      [undefined, MAX_CHECK_DEPARTURES],
    ] as const) {
      let refused: Awaited<ReturnType<typeof check>> | undefined;
      const statements = await countStatements(async () => {
        refused = await check('2030-01-01', '2030-12-31', capabilities);
      });
      const { errorMessage } = expectOctoError(refused!, 'BAD_REQUEST');
      expect(errorMessage).toContain(`departs ${365 * 96} times`);
      expect(errorMessage).toContain(`at most ${fitting}`);
      expect(errorMessage).toContain('ask for fewer dates');
      expect(statements.filter((s) => s.includes('"reserved"'))).toEqual([]);
    }
    expect(priced).toBe(545);
  });

  it('answers the most dates within the bound, under its size, and refuses one more', async () => {
    // Without prices: 62 days (5,952 departures); with them, 5 days (480 of 545).
    for (const [capabilities, last, count] of [
      [undefined, '2030-03-03', 62 * 96],
      [PRICING, '2030-01-05', 5 * 96],
    ] as const) {
      const answered = await check('2030-01-01', last, capabilities);
      expect(answered.statusCode, answered.body.slice(0, 300)).toBe(200);
      expect(answered.json()).toHaveLength(count);
      expect(answered.body.length).toBeLessThan(MAX_CHECK_ANSWER_BYTES);
      const next = last === '2030-03-03' ? '2030-03-04' : '2030-01-06';
      expectOctoError(await check('2030-01-01', next, capabilities), 'BAD_REQUEST');
    }
    const priced = (await check('2030-01-01', '2030-01-01', PRICING)).json();
    expectSpec('Availabilities_AvailabilityCheck', priced);
    expect(priced[0].unitPricing).toHaveLength(UNITS);
  });

  it('counts the events opened by hand', async () => {
    // 5 days of 96 and 65 opened by hand at minutes off the quarters: 545, the bound.
    await seedOpenedByHand('2030-01-03', 65);
    const full = await check('2030-01-01', '2030-01-05', PRICING);
    expect(full.statusCode, full.body.slice(0, 300)).toBe(200);
    expect(full.json()).toHaveLength(departuresFitting(UNITS));
    expect(full.body.length).toBeLessThan(MAX_CHECK_ANSWER_BYTES);

    await openByHand('2030-01-04T12:07:00');
    const refused = expectOctoError(
      await check('2030-01-01', '2030-01-05', PRICING),
      'BAD_REQUEST',
    );
    // 480 scheduled and 66 opened by hand: read, and refused before any is mapped (past twice
    // the bound they are refused before any is read: octo-check-by-hand-bound).
    expect(refused.errorMessage).toContain('departs 546 times in these dates');
    // Fewer dates are answered, and without prices the same five days are.
    expect((await check('2030-01-01', '2030-01-04', PRICING)).statusCode).toBe(200);
    expect((await check('2030-01-01', '2030-01-05')).statusCode).toBe(200);
  }, 120_000);

  it(`answers ${MAX_AVAILABILITY_IDS} availability ids with prices, the most a body names`, async () => {
    const day = (await check('2030-02-01', '2030-02-02')).json<{ id: string }[]>();
    const availabilityIds = day.slice(0, MAX_AVAILABILITY_IDS).map((a) => a.id);
    const body = { productId, optionId: 'DEFAULT', availabilityIds };
    const answered = await send('/availability', body, PRICING);
    expect(answered.statusCode, answered.body.slice(0, 300)).toBe(200);
    expect(answered.json()).toHaveLength(MAX_AVAILABILITY_IDS);
    expect(answered.body.length).toBeLessThan(MAX_CHECK_ANSWER_BYTES / 4);
    const more = { ...body, availabilityIds: [...availabilityIds, day[MAX_AVAILABILITY_IDS]!.id] };
    expectOctoError(await send('/availability', more, PRICING), 'BAD_REQUEST');
  });

  it('still answers the calendar of a year, with prices', async () => {
    const body = {
      productId,
      optionId: 'DEFAULT',
      localDateStart: '2032-01-01',
      localDateEnd: '2032-12-31',
    };
    const calendar = await send('/availability/calendar', body, PRICING);
    expect(calendar.statusCode, calendar.body.slice(0, 300)).toBe(200);
    const days = calendar.json();
    expect(days).toHaveLength(366);
    expect(days[0]).toMatchObject({ localDate: '2032-01-01', status: 'AVAILABLE' });
    expect(days[0].unitPricingFrom).toHaveLength(UNITS);
    expectSpec('Availabilities_AvailabilityCalendar', days);
  }, 60_000);
});

/**
 * `count` events opened by hand on a January `date` in Paris (+01:00), at one to fourteen
 * minutes past each hour (never a quarter), written as the API writes them (one is opened
 * through the API below; that many requests would be slow).
 */
async function seedOpenedByHand(date: string, count: number): Promise<void> {
  await sql`
    insert into events (id, experience_id, seller_id, starts_at, ends_at, max, reserved, manual,
                        local_zone, local_start, local_end, created_at, updated_at)
    select substr(md5(random()::text), 1, 24), ${productId}, ${seller.id}, s,
           s + interval '15 minutes', 5000, 0, true, 'Europe/Paris',
           to_char(s at time zone 'Europe/Paris', 'YYYY-MM-DD"T"HH24:MI:SS"+01:00"'),
           to_char((s + interval '15 minutes') at time zone 'Europe/Paris',
                   'YYYY-MM-DD"T"HH24:MI:SS"+01:00"'), now(), now()
    from generate_series(0, ${count - 1}::int) g,
         lateral (select (${date}::date + interval '-1 hour')::timestamp at time zone 'UTC'
                         + (g % 24) * interval '1 hour' + (1 + g % 14) * interval '1 minute' as s) m
  `.execute(t.database.db);
}

/** Opens an event by hand through the API at a local `start` in the product's zone. */
async function openByHand(start: string): Promise<void> {
  const made = await as(t.app, seller, {
    method: 'POST',
    url: '/api/events',
    payload: { experience: { id: productId }, start },
  });
  expect(made.statusCode, made.body).toBe(201);
  const opened = await as(t.app, seller, {
    method: 'PATCH',
    url: `/api/events/${made.json().id}`,
    payload: { manual: true },
  });
  expect(opened.statusCode, opened.body).toBe(200);
}
