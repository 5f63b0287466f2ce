/**
 * OCTo's availability check counts the events opened by hand into its own bound (6,000
 * departures without prices: docs/octo.md, "Availability") before it reads them. It used to
 * count them only once read, within the events module's bound of 100,000 departures a
 * request: a product with tens of thousands opened by hand made every check read them all,
 * only to refuse it. A check past twice the bound is now refused (BAD_REQUEST, ask for fewer
 * dates) on one count of at most 12,001 index entries: the departures are never read. The
 * count runs high (events beside the range count), so nearer the bound the departures read
 * decide, as before: one within it is answered, also with events opened beside the range,
 * and the API's availability and OCTo's calendar, bounded at 100,000 departures, still
 * answer the range.
 *
 * The events are written straight to the database with the columns the API writes
 * (availability-by-hand-bound.test.ts opens one through the API to show the shape).
 */
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventsFacade } from '../../src/modules/events/index.js';
import { MAX_CHECK_DEPARTURES } from '../../src/modules/octo/check-bound.js';
import { createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
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
let productId: string;
let key: string;
const START = '2030-07-01';
const END = '2030-08-31'; // 62 days: 62 scheduled departures (one a day, at 09:00)
const SCHEDULED = 62;

beforeAll(async () => {
  t = await createTestApp();
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  productId = (
    await createExperience(t.app, seller, {
      name: 'Opened by hand',
      timezone: 'UTC',
      duration: 1,
      group: { outingMax: 50 },
      schedules: daily([900]),
    })
  ).id;
  key = (await createAffiliate(t.app, seller)).apiKey;
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

const check = () =>
  octo(t.app, key, 'POST', '/availability', {
    productId,
    optionId: 'DEFAULT',
    localDateStart: START,
    localDateEnd: END,
  });

/**
 * Events opened by hand, numbered `from` to `from + count - 1`: event `g` at 2030-07-01
 * 00:01 UTC plus `4g` minutes, an odd minute of the day, so never the scheduled 09:00 (the
 * last of 13,000 is on 2030-08-06); or, `beside` the range, one a minute from 2030-09-01
 * 00:01.
 */
async function openByHand(from: number, count: number, beside = false): Promise<void> {
  const [at, first, every] = beside
    ? ['2030-09-01 00:00:00+00', from, 1]
    : ['2030-07-01 00:00:00+00', 0, 4];
  await sql`
    insert into events (id, experience_id, seller_id, starts_at, ends_at, max, reserved, manual,
                        local_zone, local_start, local_end, created_at, updated_at)
    select lpad(to_hex(g), 8, '0') || substr(md5(random()::text), 1, 16),
           ${productId}, ${seller.id}, s, s + interval '1 minute', 50, 0, true,
           'UTC', to_char(s, 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
           to_char(s + interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), now(), now()
    from generate_series(${from}::int, ${from + count - 1}::int) g,
         lateral (select ${at}::timestamptz
                         + ((g - ${first}) * ${every} + 1) * interval '1 minute' as s) m
  `.execute(t.database.db);
}

/** Events opened by hand so far, inside the range. */
let inside = 0;
/** Opened on 2030-09-01, the morning after the range: counted beside it, never read. */
const BESIDE = 500;

describe('an availability check of a product with events opened by hand', () => {
  it('answers them all up to its bound', async () => {
    await openByHand(0, MAX_CHECK_DEPARTURES - SCHEDULED);
    inside = MAX_CHECK_DEPARTURES - SCHEDULED;
    const answered = await check();
    expect(answered.statusCode, answered.body.slice(0, 300)).toBe(200);
    expect(answered.json()).toHaveLength(MAX_CHECK_DEPARTURES);
  }, 60_000);

  it('answers them up to its bound with more opened beside the range, which the count sees', async () => {
    // Within the 14 hours around the range the count looks at: 6,500 counted, 6,000 read.
    await openByHand(100_000, BESIDE, true);
    const answered = await check();
    expect(answered.statusCode, answered.body.slice(0, 300)).toBe(200);
    expect(answered.json()).toHaveLength(MAX_CHECK_DEPARTURES);
  }, 60_000);

  it('refuses them past its bound once read, before any is mapped', async () => {
    await openByHand(inside, 10_000 - MAX_CHECK_DEPARTURES);
    inside += 10_000 - MAX_CHECK_DEPARTURES;
    const read = vi.spyOn(eventsFacade, 'departuresBetween');
    const { errorMessage } = expectOctoError(await check(), 'BAD_REQUEST');
    expect(read).toHaveBeenCalledTimes(1);
    expect(errorMessage).toContain('departs 10000 times in these dates');
    expect(errorMessage).toContain(`at most ${MAX_CHECK_DEPARTURES} departures`);
  }, 60_000);

  it('refuses them past twice its bound before reading any, though under 100,000', async () => {
    const most = 2 * MAX_CHECK_DEPARTURES;
    await openByHand(inside, most + 1_000 - inside);
    const read = vi.spyOn(eventsFacade, 'departuresBetween');
    let refused: Awaited<ReturnType<typeof check>> | undefined;
    const statements = await countStatements(async () => {
      refused = await check();
    });
    const { errorMessage } = expectOctoError(refused!, 'BAD_REQUEST');
    // Refused on one count (stopping one past the room left): no departure read, no event's
    // seats.
    expect(read).not.toHaveBeenCalled();
    expect(statements.filter((s) => s.includes('"reserved"'))).toEqual([]);
    const ofEvents = statements.filter((s) => s.includes('"events"'));
    expect(ofEvents).toHaveLength(1);
    expect(ofEvents[0]).toMatch(/^select count\(\*\) .* manual .* limit \$\d+\) as "found"$/);
    expect(errorMessage).toContain(
      `departs up to ${SCHEDULED} times by their schedules and more than ${most - SCHEDULED} more times in these dates`,
    );
    expect(errorMessage).toContain(`at most ${MAX_CHECK_DEPARTURES} departures`);
    expect(errorMessage).toContain('ask for fewer dates');
  }, 60_000);

  it('leaves the API’s availability and OCTo’s calendar answering the range', async () => {
    const api = await t.app.inject({
      method: 'GET',
      url: `/api/availability?experience=${productId}&start=${START}&end=${END}`,
    });
    expect(api.statusCode, api.body.slice(0, 300)).toBe(200);
    const calendar = await octo(t.app, key, 'POST', '/availability/calendar', {
      productId,
      optionId: 'DEFAULT',
      localDateStart: START,
      localDateEnd: END,
    });
    expect(calendar.statusCode, calendar.body.slice(0, 300)).toBe(200);
    expect(calendar.json()).toHaveLength(62);
  }, 60_000);
});
