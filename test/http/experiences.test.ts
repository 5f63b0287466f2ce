import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/modules/schedules/schedule.rules.js';
import {
  as,
  createAdmin,
  createTestApp,
  expectProblem,
  signUp,
  type Account,
  type TestApp,
} from '../helpers/app.js';
import { makeDelegate } from '../helpers/guides.js';

let t: TestApp;
let seller: Account;
let otherSeller: Account;
let developer: Account;
let curator: Account;
let reservation: Account;
let admin: Account;

beforeAll(async () => {
  t = await createTestApp();
  seller = await signUp(t.app, { name: 'Kayak Co', roles: ['ROLE_SELLER'] });
  otherSeller = await signUp(t.app, { name: 'Bike Co', roles: ['ROLE_SELLER'] });
  developer = await signUp(t.app, { name: 'Dev' });
  curator = await signUp(t.app, { name: 'Curator' });
  reservation = await signUp(t.app, { name: 'Front Desk' });
  admin = await createAdmin(t);
  for (const [account, role] of [
    [curator, 'ROLE_CURATOR'],
    [reservation, 'ROLE_RESERVATION'],
  ] as const) {
    await makeDelegate(t.app, seller, account, [role]);
  }
});
afterAll(async () => t.close());

const ID = /^[0-9a-f]{24}$/;

/** An Experience object as the API answers it. */
interface Experience {
  id: string;
  updatedAt: string;
  schedules: ({ id: string } & Record<string, unknown>)[];
  [field: string]: unknown;
}
const UNKNOWN_ID = '0123456789abcdef01234567';

/** A complete, valid creation body. */
const valid = () => ({
  name: 'Sunset Kayak Tour',
  desc: 'Paddle into the sunset.',
  price: 49.5,
  priceType: 'person',
  currency: 'EUR',
  duration: 90,
  timezone: 'Europe/Paris',
  group: { orderMin: 1, orderMax: 6, outingMax: 12 },
  schedules: [
    { name: 'Season', type: 'available', repeat: 'weekly', days: [1, 3, 5], times: [900, 1400] },
    { name: 'Christmas', type: 'unavailable', repeat: 'custom', dates: ['2019-12-25'] },
  ],
  visible: true,
});

const post = (account: Account | null, payload: unknown) =>
  as(t.app, account, { method: 'POST', url: '/api/experiences', payload: payload as object });

async function createExperience(
  fields: Record<string, unknown> = {},
  account: Account = seller,
): Promise<Experience> {
  const response = await post(account, { ...valid(), ...fields });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const get = (account: Account | null, id: string) =>
  as(t.app, account, { method: 'GET', url: `/api/experiences/${id}` });
const put = (account: Account | null, id: string, payload: unknown) =>
  as(t.app, account, { method: 'PUT', url: `/api/experiences/${id}`, payload: payload as object });
const del = (account: Account | null, id: string) =>
  as(t.app, account, { method: 'DELETE', url: `/api/experiences/${id}` });
const availability = (account: Account | null, id: string, query: string) =>
  as(t.app, account, { method: 'GET', url: `/api/experiences/${id}/availability?${query}` });

async function countExperiences(): Promise<number> {
  const row = await t.database.db
    .selectFrom('experiences')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A date `days` from today (UTC). */
const fromToday = (days: number) => addDays(new Date().toISOString().slice(0, 10), days);

/** Every day at 09:00 and 14:00 UTC, 5 seats per departure. */
const everyDay = {
  timezone: 'UTC',
  group: { orderMin: null, orderMax: null, outingMax: 5 },
  schedules: [
    { type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: [900, 1400] },
  ],
};

async function book(
  experienceId: string,
  arrival: string,
  quantity: number,
  account: Account = developer,
) {
  const response = await as(t.app, account, {
    method: 'POST',
    url: '/api/orders',
    payload: { items: [{ experience: { id: experienceId }, arrival, arrivalTime: 900, quantity }] },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

describe('POST /api/experiences', () => {
  it('stores time zones in their canonical spelling', async () => {
    const response = await post(seller, { ...valid(), timezone: 'europe/paris' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().timezone).toBe('Europe/Paris');
  });

  it('creates an experience for its seller and echoes every field', async () => {
    const before = await countExperiences();
    const response = await post(seller, valid());
    expect(response.statusCode, response.body).toBe(201);
    const experience = response.json();
    const { schedules, ...rest } = valid();
    expect(experience).toMatchObject({
      ...rest,
      object: 'experience',
      seller: { id: seller.id },
    });
    expect(experience.id).toMatch(ID);
    expect(Date.parse(experience.createdAt)).not.toBeNaN();
    expect(Date.parse(experience.updatedAt)).not.toBeNaN();
    expect(experience).not.toHaveProperty('guide');
    // Schedules come back as sent, each with an id of its own.
    expect(experience.schedules).toHaveLength(2);
    schedules.forEach((schedule, i) => {
      expect(experience.schedules[i]).toEqual({ ...schedule, id: expect.stringMatching(ID) });
    });
    expect(experience.schedules[0].id).not.toBe(experience.schedules[1].id);
    expect(await countExperiences()).toBe(before + 1);
    // And it reads back the same.
    const read = await get(seller, experience.id);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(experience);
  });

  it('keeps a schedule id the client gives', async () => {
    const id = 'aaaaaaaaaaaaaaaaaaaaaaaa';
    const experience = await createExperience({
      schedules: [{ id, type: 'available', repeat: 'weekly', days: [2], times: [1000] }],
    });
    expect(experience.schedules[0]!.id).toBe(id);
  });

  it('defaults timezone to UTC, visible to true, desc to empty and the group to no limits', async () => {
    const response = await post(seller, {
      name: 'Walking Tour',
      price: 0,
      priceType: 'outing',
      currency: 'USD',
      duration: 60,
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      name: 'Walking Tour',
      desc: '',
      price: 0,
      priceType: 'outing',
      currency: 'USD',
      duration: 60,
      timezone: 'UTC',
      visible: true,
      group: { orderMin: null, orderMax: null, outingMax: null },
      schedules: [],
      seller: { id: seller.id },
    });
  });

  it('refuses an account that is not a seller with 403 and creates nothing', async () => {
    const before = await countExperiences();
    expectProblem(await post(developer, valid()), 403, 'forbidden');
    expect(await countExperiences()).toBe(before);
  });

  it('refuses to create for another seller without rights (403)', async () => {
    const before = await countExperiences();
    expectProblem(
      await post(otherSeller, { ...valid(), seller: { id: seller.id } }),
      403,
      'forbidden',
    );
    expectProblem(
      await post(developer, { ...valid(), seller: { id: seller.id } }),
      403,
      'forbidden',
    );
    expect(await countExperiences()).toBe(before);
  });

  it('lets a ROLE_CURATOR delegate create for its seller', async () => {
    const response = await post(curator, { ...valid(), seller: { id: seller.id } });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().seller).toEqual({ id: seller.id });
    // The seller manages it like its own.
    expect((await get(seller, response.json().id)).statusCode).toBe(200);
  });

  it('refuses a ROLE_RESERVATION delegate (403)', async () => {
    const before = await countExperiences();
    expectProblem(
      await post(reservation, { ...valid(), seller: { id: seller.id } }),
      403,
      'forbidden',
    );
    expect(await countExperiences()).toBe(before);
  });

  it('lets an admin create for any seller', async () => {
    const response = await post(admin, { ...valid(), seller: { id: otherSeller.id } });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().seller).toEqual({ id: otherSeller.id });
  });

  it('answers 400 naming seller.id when it is not a seller', async () => {
    const body = expectProblem(
      await post(admin, { ...valid(), seller: { id: developer.id } }),
      400,
      'validation_failed',
    );
    expect(body.errors?.map((e) => e.name)).toEqual(['seller.id']);
  });

  it('answers 401 without credentials', async () => {
    expectProblem(await post(null, valid()), 401, 'authentication_required');
  });

  const schedule = (fields: Record<string, unknown>) => ({
    schedules: [{ type: 'available', repeat: 'weekly', days: [1], times: [900], ...fields }],
  });
  const bad: [string, (body: Record<string, unknown>) => void | Record<string, unknown>, string][] =
    [
      ['an unknown field', (b) => ({ ...b, colour: 'red' }), 'colour'],
      ['an unknown group field', (b) => ({ ...b, group: { seats: 3 } }), 'group.seats'],
      [
        'a missing name',
        (b) => {
          delete b.name;
        },
        'name',
      ],
      ['an empty name', (b) => ({ ...b, name: '' }), 'name'],
      [
        'a missing price',
        (b) => {
          delete b.price;
        },
        'price',
      ],
      ['a negative price', (b) => ({ ...b, price: -1 }), 'price'],
      ['a price with 3 decimals', (b) => ({ ...b, price: 10.005 }), 'price'],
      ['a price as a string', (b) => ({ ...b, price: '10' }), 'price'],
      ['an unknown priceType', (b) => ({ ...b, priceType: 'group' }), 'priceType'],
      ['an unknown currency', (b) => ({ ...b, currency: 'XYZ' }), 'currency'],
      ['a lowercase currency', (b) => ({ ...b, currency: 'eur' }), 'currency'],
      ['an unknown time zone', (b) => ({ ...b, timezone: 'Mars/Olympus' }), 'timezone'],
      ['a UTC offset for a time zone', (b) => ({ ...b, timezone: '+02:00' }), 'timezone'],
      ['a duration of 0', (b) => ({ ...b, duration: 0 }), 'duration'],
      ['a fractional duration', (b) => ({ ...b, duration: 1.5 }), 'duration'],
      [
        'orderMin above orderMax',
        (b) => ({ ...b, group: { orderMin: 5, orderMax: 4 } }),
        'group.orderMin',
      ],
      ['orderMin 0', (b) => ({ ...b, group: { orderMin: 0 } }), 'group.orderMin'],
      ['a negative outingMax', (b) => ({ ...b, group: { outingMax: -1 } }), 'group.outingMax'],
      ['visible as a string', (b) => ({ ...b, visible: 'yes' }), 'visible'],
      ['a weekday 7', (b) => ({ ...b, ...schedule({ days: [7] }) }), 'schedules.0.days.0'],
      ['a weekday -1', (b) => ({ ...b, ...schedule({ days: [1, -1] }) }), 'schedules.0.days.1'],
      ['a repeated weekday', (b) => ({ ...b, ...schedule({ days: [1, 1] }) }), 'schedules.0.days'],
      [
        'a weekly schedule without days',
        (b) => ({ ...b, ...schedule({ days: [] }) }),
        'schedules.0.days',
      ],
      ['a time 960', (b) => ({ ...b, ...schedule({ times: [900, 960] }) }), 'schedules.0.times.1'],
      ['a time 2400', (b) => ({ ...b, ...schedule({ times: [2400] }) }), 'schedules.0.times.0'],
      [
        'a time as a string',
        (b) => ({ ...b, ...schedule({ times: ['0900'] }) }),
        'schedules.0.times.0',
      ],
      [
        'an available schedule without times',
        (b) => ({ ...b, ...schedule({ times: [] }) }),
        'schedules.0.times',
      ],
      [
        'a custom schedule without dates',
        (b) => ({ ...b, ...schedule({ repeat: 'custom', days: undefined }) }),
        'schedules.0.dates',
      ],
      [
        'days on a custom schedule',
        (b) => ({ ...b, ...schedule({ repeat: 'custom', dates: ['2019-11-08'] }) }),
        'schedules.0.days',
      ],
      [
        'dates on a weekly schedule',
        (b) => ({ ...b, ...schedule({ dates: ['2019-11-08'] }) }),
        'schedules.0.dates',
      ],
      [
        'a date that does not exist',
        (b) => ({
          ...b,
          ...schedule({ repeat: 'custom', days: undefined, dates: ['2019-02-29'] }),
        }),
        'schedules.0.dates.0',
      ],
      [
        'a malformed date',
        (b) => ({ ...b, ...schedule({ repeat: 'custom', days: undefined, dates: ['8/11/2019'] }) }),
        'schedules.0.dates.0',
      ],
      [
        'an end before the start',
        (b) => ({ ...b, ...schedule({ start: '2019-11-08', end: '2019-11-01' }) }),
        'schedules.0.end',
      ],
      [
        'a start that does not exist',
        (b) => ({ ...b, ...schedule({ start: '2019-13-01' }) }),
        'schedules.0.start',
      ],
      [
        'timeRanges on an experience',
        (b) => ({ ...b, ...schedule({ timeRanges: [{ startTime: 900, endTime: 1000 }] }) }),
        'schedules.0.timeRanges',
      ],
      [
        'an unknown schedule type',
        (b) => ({ ...b, ...schedule({ type: 'closed' }) }),
        'schedules.0.type',
      ],
      [
        'an unknown repeat',
        (b) => ({ ...b, ...schedule({ repeat: 'daily' }) }),
        'schedules.0.repeat',
      ],
      [
        'an unknown schedule field',
        (b) => ({ ...b, ...schedule({ every: 2 }) }),
        'schedules.0.every',
      ],
      ['a malformed schedule id', (b) => ({ ...b, ...schedule({ id: 'x' }) }), 'schedules.0.id'],
      [
        'a bad second schedule',
        (b) => ({
          ...b,
          schedules: [
            { type: 'available', repeat: 'weekly', days: [1], times: [900] },
            { type: 'unavailable', repeat: 'weekly', days: [] },
          ],
        }),
        'schedules.1.days',
      ],
    ];

  it.each(bad)('answers 400 for %s and creates nothing', async (_label, edit, field) => {
    const before = await countExperiences();
    const body: Record<string, unknown> = valid();
    const payload = edit(body) ?? body;
    const problem = expectProblem(await post(seller, payload), 400, 'validation_failed');
    expect(problem.errors).toEqual([{ in: 'body', name: field, detail: expect.any(String) }]);
    expect(problem.detail).toEqual(expect.any(String));
    expect(await countExperiences()).toBe(before);
  });

  it('names every schedule problem at once', async () => {
    const problem = expectProblem(
      await post(seller, {
        ...valid(),
        schedules: [
          { type: 'available', repeat: 'weekly', days: [1], times: [960, 1075] },
          {
            type: 'available',
            repeat: 'custom',
            dates: [],
            times: [1000],
            start: '2019-11-08',
            end: '2019-11-07',
          },
        ],
      }),
      400,
      'validation_failed',
    );
    expect(problem.errors?.map((e) => e.name)).toEqual([
      'schedules.0.times.0',
      'schedules.0.times.1',
      'schedules.1.dates',
      'schedules.1.end',
    ]);
  });

  it('answers 400 for a body that is not an object', async () => {
    const before = await countExperiences();
    expectProblem(await post(seller, [valid()]), 400, 'validation_failed');
    expect(await countExperiences()).toBe(before);
  });
});

describe('GET /api/experiences/{id}', () => {
  let shown: Experience;
  let hidden: Experience;
  beforeAll(async () => {
    shown = await createExperience({ name: 'Shown' });
    hidden = await createExperience({ name: 'Hidden', visible: false });
  });

  it('is public for a visible experience', async () => {
    for (const account of [null, developer, otherSeller, seller]) {
      const response = await get(account, shown.id);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual(shown);
    }
  });

  it('hides a hidden experience from everyone but the seller’s staff (404)', async () => {
    for (const account of [null, developer, otherSeller]) {
      expectProblem(await get(account, hidden.id), 404, 'not_found');
    }
    // Reservation staff see it (they book it) but do not manage it.
    for (const account of [seller, curator, admin, reservation]) {
      const response = await get(account, hidden.id);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ id: hidden.id, visible: false });
    }
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expectProblem(await get(seller, UNKNOWN_ID), 404, 'not_found');
    expectProblem(await get(null, UNKNOWN_ID), 404, 'not_found');
    for (const id of ['xyz', UNKNOWN_ID.toUpperCase(), UNKNOWN_ID + '0']) {
      const problem = expectProblem(await get(seller, id), 400, 'validation_failed');
      expect(problem.errors?.[0]).toMatchObject({ in: 'path', name: 'id' });
    }
  });

  it('answers 401 for a wrong key, even on a public experience', async () => {
    expectProblem(
      await as(t.app, { apiKey: 'wrong' }, { method: 'GET', url: `/api/experiences/${shown.id}` }),
      401,
      'invalid_credentials',
    );
  });
});

describe('PUT /api/experiences/{id}', () => {
  it('changes the given fields and keeps the others', async () => {
    const created = await createExperience();
    const response = await put(seller, created.id, { price: 55.25, desc: '' });
    expect(response.statusCode, response.body).toBe(200);
    const updated = response.json();
    expect(updated).toEqual({
      ...created,
      price: 55.25,
      desc: '',
      updatedAt: expect.any(String),
    });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    expect((await get(seller, created.id)).json()).toEqual(updated);
  });

  it('changes one group field and keeps the other two', async () => {
    const created = await createExperience();
    const updated = (await put(seller, created.id, { group: { outingMax: null } })).json();
    expect(updated.group).toEqual({ orderMin: 1, orderMax: 6, outingMax: null });
  });

  it('replaces the schedules, giving new ones ids and keeping given ids', async () => {
    const created = await createExperience();
    const kept = { ...created.schedules[0], times: [1000] };
    const response = await put(seller, created.id, {
      schedules: [kept, { type: 'available', repeat: 'custom', dates: ['2020-01-01'], times: [0] }],
    });
    expect(response.statusCode, response.body).toBe(200);
    const { schedules } = response.json();
    expect(schedules).toEqual([
      kept,
      {
        id: expect.stringMatching(ID),
        type: 'available',
        repeat: 'custom',
        dates: ['2020-01-01'],
        times: [0],
      },
    ]);
    expect(schedules[1].id).not.toBe(kept.id);
  });

  it('hides and shows an experience', async () => {
    const created = await createExperience();
    expect((await put(seller, created.id, { visible: false })).json().visible).toBe(false);
    expectProblem(await get(null, created.id), 404, 'not_found');
    expect((await put(seller, created.id, { visible: true })).json().visible).toBe(true);
    expect((await get(null, created.id)).statusCode).toBe(200);
  });

  it('lets a curator delegate change its seller experience', async () => {
    const created = await createExperience();
    const response = await put(curator, created.id, { name: 'Renamed' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().name).toBe('Renamed');
  });

  const bad: [string, Record<string, unknown>, string][] = [
    ['an unknown field', { colour: 'red' }, 'colour'],
    ['seller (not changeable)', { seller: { id: UNKNOWN_ID } }, 'seller'],
    ['a negative price', { price: -5 }, 'price'],
    ['a price with 3 decimals', { price: 1.999 }, 'price'],
    ['an unknown currency', { currency: 'XYZ' }, 'currency'],
    ['a lowercase currency', { currency: 'usd' }, 'currency'],
    ['an unknown time zone', { timezone: 'Europe/Atlantis' }, 'timezone'],
    ['a duration of 0', { duration: 0 }, 'duration'],
    ['an empty name', { name: '' }, 'name'],
    // The stored orderMax is 6.
    ['orderMin above the stored orderMax', { group: { orderMin: 7 } }, 'group.orderMin'],
    ['orderMin above orderMax', { group: { orderMin: 3, orderMax: 2 } }, 'group.orderMin'],
    [
      'a bad schedule',
      { schedules: [{ type: 'available', repeat: 'weekly', days: [1], times: [1260] }] },
      'schedules.0.times.0',
    ],
    [
      'timeRanges on an experience',
      {
        schedules: [
          {
            type: 'available',
            repeat: 'weekly',
            days: [1],
            times: [900],
            timeRanges: [{ startTime: 900, endTime: 1000 }],
          },
        ],
      },
      'schedules.0.timeRanges',
    ],
  ];

  it.each(bad)('answers 400 for %s and changes nothing', async (_label, payload, field) => {
    const created = await createExperience();
    const problem = expectProblem(await put(seller, created.id, payload), 400, 'validation_failed');
    expect(problem.errors).toEqual([{ in: 'body', name: field, detail: expect.any(String) }]);
    expect((await get(seller, created.id)).json()).toEqual(created);
  });

  it('answers 400 for an empty body', async () => {
    const created = await createExperience();
    expectProblem(await put(seller, created.id, {}), 400, 'validation_failed');
  });

  it('refuses a caller that can see but not manage the experience (403)', async () => {
    const created = await createExperience();
    for (const account of [otherSeller, developer, reservation]) {
      expectProblem(await put(account, created.id, { price: 1 }), 403, 'forbidden');
    }
    expect((await get(seller, created.id)).json()).toEqual(created);
  });

  it('answers 404 for a hidden experience of another seller, and an unknown one', async () => {
    const created = await createExperience({ visible: false });
    expectProblem(await put(otherSeller, created.id, { price: 1 }), 404, 'not_found');
    expectProblem(await put(seller, UNKNOWN_ID, { price: 1 }), 404, 'not_found');
    expect((await get(seller, created.id)).json()).toEqual(created);
  });

  it('answers 401 without credentials', async () => {
    const created = await createExperience();
    expectProblem(await put(null, created.id, { price: 1 }), 401, 'authentication_required');
  });
});

describe('DELETE /api/experiences/{id}', () => {
  it('deletes an experience never booked: 204, then 404', async () => {
    const created = await createExperience();
    const before = await countExperiences();
    const response = await del(seller, created.id);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await countExperiences()).toBe(before - 1);
    expectProblem(await get(seller, created.id), 404, 'not_found');
    expectProblem(await del(seller, created.id), 404, 'not_found');
  });

  it('lets a curator delete; refuses other sellers (403) and hides hidden ones (404)', async () => {
    const created = await createExperience();
    expectProblem(await del(otherSeller, created.id), 403, 'forbidden');
    expectProblem(await del(reservation, created.id), 403, 'forbidden');
    expectProblem(await del(null, created.id), 401, 'authentication_required');
    const hidden = await createExperience({ visible: false });
    expectProblem(await del(otherSeller, hidden.id), 404, 'not_found');
    expect((await get(seller, hidden.id)).statusCode).toBe(200);
    expect((await del(curator, created.id)).statusCode).toBe(204);
  });

  it('keeps its time zone while departures to come hold seats (409), changes it once none does', async () => {
    const created = await createExperience(everyDay);
    const order = await book(created.id, fromToday(10), 2);
    // Bookings find their departure by local time in the zone: in another zone, 09:00 would
    // be a new departure with every seat open beside the one holding these.
    const refused = expectProblem(
      await put(seller, created.id, { timezone: 'Europe/Paris' }),
      409,
      'experience_has_bookings',
    );
    expect(String(refused.detail)).toMatch(/time zone/);
    expect((await get(seller, created.id)).json().timezone).toBe('UTC');
    // The same zone sent back, or other fields, are no change of zone.
    expect((await put(seller, created.id, { timezone: 'UTC', price: 12 })).statusCode).toBe(200);
    const canceled = await as(t.app, seller, {
      method: 'POST',
      url: `/api/orders/${order.id}/cancel`,
    });
    expect(canceled.statusCode).toBe(200);
    const moved = await put(seller, created.id, { timezone: 'Europe/Paris' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().timezone).toBe('Europe/Paris');
  });

  it('answers 409 experience_has_bookings once an order was booked on it', async () => {
    const created = await createExperience(everyDay);
    await book(created.id, fromToday(10), 1);
    const before = await countExperiences();
    const problem = expectProblem(await del(seller, created.id), 409, 'experience_has_bookings');
    expect(String(problem.detail)).toMatch(/visible/);
    expect(await countExperiences()).toBe(before);
    expect((await get(null, created.id)).statusCode).toBe(200);
    // Hiding it is the way out.
    expect((await put(seller, created.id, { visible: false })).statusCode).toBe(200);
  });
});

describe('GET /api/experiences/{id}/availability', () => {
  let weekly: Experience;
  beforeAll(async () => {
    // Mondays, Wednesdays and Fridays at 09:00 and 14:00 Paris time, 12 seats, closed on
    // Christmas (see valid()).
    weekly = await createExperience();
  });

  it('answers open seats per departure per local date; a day without departures is {}', async () => {
    // 2019-11-03 is a Sunday.
    const response = await availability(null, weekly.id, 'start=2019-11-03&end=2019-11-08');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({
      '2019-11-03': {},
      '2019-11-04': { '900': 12, '1400': 12 },
      '2019-11-05': {},
      '2019-11-06': { '900': 12, '1400': 12 },
      '2019-11-07': {},
      '2019-11-08': { '900': 12, '1400': 12 },
    });
    expect(Object.keys(response.json())).toEqual([
      '2019-11-03',
      '2019-11-04',
      '2019-11-05',
      '2019-11-06',
      '2019-11-07',
      '2019-11-08',
    ]);
  });

  it('follows unavailable schedules: Christmas 2019 (a Wednesday) is closed', async () => {
    const response = await availability(null, weekly.id, 'start=2019-12-23&end=2019-12-25');
    expect(response.json()).toEqual({
      '2019-12-23': { '900': 12, '1400': 12 },
      '2019-12-24': {},
      '2019-12-25': {},
    });
  });

  it('answers one date for start = end', async () => {
    const response = await availability(null, weekly.id, 'start=2019-11-04&end=2019-11-04');
    expect(response.json()).toEqual({ '2019-11-04': { '900': 12, '1400': 12 } });
  });

  it('answers null seats for an unlimited experience', async () => {
    const unlimited = await createExperience({ ...everyDay, group: { outingMax: null } });
    const response = await availability(null, unlimited.id, 'start=2019-11-04&end=2019-11-04');
    expect(response.json()).toEqual({ '2019-11-04': { '900': null, '1400': null } });
  });

  it('skips a departure that does not exist on a daylight-saving day', async () => {
    const paris = await createExperience({
      schedules: [{ type: 'available', repeat: 'weekly', days: [0, 6], times: [230, 1000] }],
    });
    const response = await availability(null, paris.id, 'start=2019-03-30&end=2019-03-31');
    expect(response.json()).toEqual({
      '2019-03-30': { '230': 12, '1000': 12 },
      '2019-03-31': { '1000': 12 },
    });
  });

  it('shows fewer seats after a booking, at that departure only', async () => {
    const experience = await createExperience(everyDay);
    const day = fromToday(5);
    const query = `start=${day}&end=${addDays(day, 1)}`;
    expect((await availability(null, experience.id, query)).json()).toEqual({
      [day]: { '900': 5, '1400': 5 },
      [addDays(day, 1)]: { '900': 5, '1400': 5 },
    });
    await book(experience.id, day, 2);
    expect((await availability(null, experience.id, query)).json()).toEqual({
      [day]: { '900': 3, '1400': 5 },
      [addDays(day, 1)]: { '900': 5, '1400': 5 },
    });
    await book(experience.id, day, 3);
    expect((await availability(developer, experience.id, query)).json()).toEqual({
      [day]: { '900': 0, '1400': 5 },
      [addDays(day, 1)]: { '900': 5, '1400': 5 },
    });
  });

  it('answers up to 62 days, and 400 naming end for 63', async () => {
    const ok = await availability(null, weekly.id, 'start=2019-11-01&end=2020-01-01');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(Object.keys(ok.json())).toHaveLength(62);
    const problem = expectProblem(
      await availability(null, weekly.id, 'start=2019-11-01&end=2020-01-02'),
      400,
      'validation_failed',
    );
    expect(problem.errors).toEqual([{ in: 'query', name: 'end', detail: expect.any(String) }]);
  });

  it('answers 400 naming end when end is before start', async () => {
    const problem = expectProblem(
      await availability(null, weekly.id, 'start=2019-11-08&end=2019-11-07'),
      400,
      'validation_failed',
    );
    expect(problem.errors).toEqual([{ in: 'query', name: 'end', detail: expect.any(String) }]);
  });

  it.each([
    ['a missing start', 'end=2019-11-08', 'start'],
    ['a missing end', 'start=2019-11-08', 'end'],
    ['a malformed start', 'start=2019-11-8&end=2019-11-08', 'start'],
    ['a malformed end', 'start=2019-11-08&end=08/11/2019', 'end'],
    ['a start that is a date-time', 'start=2019-11-08T00:00:00Z&end=2019-11-08', 'start'],
    ['a start that is not a real date', 'start=2019-02-30&end=2019-03-02', 'start'],
    ['an end that is not a real date', 'start=2019-12-30&end=2019-13-01', 'end'],
  ])('answers 400 for %s (%s)', async (_label, query, field) => {
    const problem = expectProblem(
      await availability(null, weekly.id, query),
      400,
      'validation_failed',
    );
    expect(problem.errors?.[0]).toMatchObject({ in: 'query', name: field });
  });

  it('answers the last days of year 9999 like any other', async () => {
    const response = await availability(null, weekly.id, 'start=9999-12-27&end=9999-12-31');
    expect(response.statusCode, response.body).toBe(200);
    // 9999-12-27 is a Monday.
    expect(response.json()).toEqual({
      '9999-12-27': { '900': 12, '1400': 12 },
      '9999-12-28': {},
      '9999-12-29': { '900': 12, '1400': 12 },
      '9999-12-30': {},
      '9999-12-31': { '900': 12, '1400': 12 },
    });
  });

  it('refuses a range of thousands of years', async () => {
    const problem = expectProblem(
      await availability(null, weekly.id, 'start=1000-01-01&end=9999-12-30'),
      400,
      'validation_failed',
    );
    expect(problem.errors?.[0]).toMatchObject({ in: 'query', name: 'end' });
  });

  it('is public for a visible experience, hidden ones only for those who manage them', async () => {
    const hidden = await createExperience({ visible: false });
    const query = 'start=2019-11-04&end=2019-11-04';
    for (const account of [null, developer, otherSeller]) {
      expect((await availability(account, weekly.id, query)).statusCode).toBe(200);
      expectProblem(await availability(account, hidden.id, query), 404, 'not_found');
    }
    for (const account of [seller, curator, admin]) {
      const response = await availability(account, hidden.id, query);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ '2019-11-04': { '900': 12, '1400': 12 } });
    }
  });

  it('answers 404 for an unknown experience and 400 for a malformed id', async () => {
    expectProblem(
      await availability(null, UNKNOWN_ID, 'start=2019-11-04&end=2019-11-04'),
      404,
      'not_found',
    );
    const problem = expectProblem(
      await availability(null, 'nope', 'start=2019-11-04&end=2019-11-04'),
      400,
      'validation_failed',
    );
    expect(problem.errors?.[0]).toMatchObject({ in: 'path', name: 'id' });
  });
});
