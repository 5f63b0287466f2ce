/**
 * Resources shared by experiences (issue 29, docs/resources.md), through the public API: CRUD
 * and lists; experiences naming their resources; a boat shared by two experiences whose
 * departures overlap (exact overlap: touching windows share nothing), refused with 409
 * resource_full naming it; seats given back by cancellations and changes; seats per guest;
 * availability as the smaller of the departure's and the boat's room; who may; a boat an
 * experience stops using, and an event whose window grows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createTestApp,
  expectProblem,
  signUp,
  type Account,
  type TestApp,
} from '../helpers/app.js';
import { book, openShop, type Shop } from '../helpers/booking.js';
import { delegate } from '../helpers/guides.js';
import { createAffiliate, octo } from '../helpers/octo.js';
import { countStatements } from '../helpers/statement-counter.js';

let t: TestApp;
let shop: Shop;
let customer: Account;
const day = '2030-07-01';

beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app, { timezone: 'UTC' });
  customer = await signUp(t.app);
});
afterAll(async () => t.close());

const post = (who: Account, url: string, payload: object) =>
  as(t.app, who, { method: 'POST', url, payload });
const put = (who: Account, url: string, payload: object) =>
  as(t.app, who, { method: 'PUT', url, payload });
const get = (who: Account, url: string) => as(t.app, who, { method: 'GET', url });

async function resource(name: string, capacity: number, who: Account = shop.seller) {
  const response = await post(who, '/api/resources', { name, capacity });
  expect(response.statusCode).toBe(201);
  return response.json();
}

/** An experience of the shop's seller departing at `times`, using `resources`. */
async function experience(duration: number, times: number[], resources: object[]) {
  const response = await post(shop.seller, '/api/experiences', {
    name: `Tour ${times.join('-')}`,
    price: 10,
    priceType: 'person',
    currency: 'EUR',
    duration,
    timezone: 'UTC',
    group: { outingMax: 20 },
    schedules: [{ type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times }],
    resources,
  });
  expect(response.statusCode).toBe(201);
  return response.json();
}

const seat = (experienceId: string, arrivalTime: number, quantity: number) => ({
  items: [{ experience: { id: experienceId }, arrival: day, arrivalTime, quantity }],
});

describe('resources', () => {
  it('are made, listed in the query language, read, changed and deleted by the seller', async () => {
    const boat = await resource('Boat Marie-Louise', 12);
    expect(boat).toEqual({
      object: 'resource',
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      seller: { id: shop.seller.id },
      name: 'Boat Marie-Louise',
      capacity: 12,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    await resource('Van', 8);
    const list = await get(shop.seller, '/api/resources?name[contains]=marie&sort=-capacity');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((r: { id: string }) => r.id)).toEqual([boat.id]);
    expect((await get(shop.seller, `/api/resources/${boat.id}`)).json()).toEqual(boat);
    const renamed = await put(shop.seller, `/api/resources/${boat.id}`, {
      name: 'Boat 1',
      capacity: 14,
    });
    expect(renamed.json()).toMatchObject({ name: 'Boat 1', capacity: 14 });
    const removed = await as(t.app, shop.seller, {
      method: 'DELETE',
      url: `/api/resources/${boat.id}`,
    });
    expect(removed.statusCode).toBe(204);
    expectProblem(await get(shop.seller, `/api/resources/${boat.id}`), 404, 'not_found');
    expectProblem(
      await post(shop.seller, '/api/resources', { name: '', capacity: 1 }),
      400,
      'validation_failed',
    );
    // Blank once trimmed: refused as the client's mistake, not a 500 from the column's check.
    const blank = expectProblem(
      await post(shop.seller, '/api/resources', { name: '   ', capacity: 1 }),
      400,
      'validation_failed',
    );
    expect(blank.errors).toEqual([expect.objectContaining({ name: 'name' })]);
    const van = (await get(shop.seller, '/api/resources?name=Van')).json().data[0];
    expectProblem(
      await put(shop.seller, `/api/resources/${van.id}`, { name: ' ' }),
      400,
      'validation_failed',
    );
    expect((await get(shop.seller, `/api/resources/${van.id}`)).json().name).toBe('Van');
    expectProblem(
      await post(shop.seller, '/api/resources', { name: 'x', capacity: -1 }),
      400,
      'validation_failed',
    );
    expectProblem(
      await get(shop.seller, '/api/resources?capacity[contains]=1'),
      400,
      'operator_not_allowed',
    );
  });

  it('are the seller’s: curators manage them, reservation staff read them, others see nothing', async () => {
    const boat = await resource('Private boat', 6);
    const curator = await delegate(t.app, shop.seller, ['ROLE_CURATOR'], 'Curator');
    const desk = await delegate(t.app, shop.seller, ['ROLE_RESERVATION'], 'Desk');
    const other = await openShop(t.app);
    expect((await put(curator, `/api/resources/${boat.id}`, { capacity: 7 })).statusCode).toBe(200);
    expect((await get(desk, `/api/resources/${boat.id}`)).statusCode).toBe(200);
    expectProblem(await put(desk, `/api/resources/${boat.id}`, { capacity: 8 }), 403, 'forbidden');
    for (const who of [customer, other.seller]) {
      expectProblem(await get(who, `/api/resources/${boat.id}`), 404, 'not_found');
      expectProblem(await put(who, `/api/resources/${boat.id}`, { capacity: 1 }), 404, 'not_found');
      expect((await get(who, `/api/resources?seller=${shop.seller.id}`)).json().data).toEqual([]);
    }
    expectProblem(
      await post(customer, '/api/resources', { name: 'Mine', capacity: 2 }),
      403,
      'forbidden',
    );
    const made = await post(curator, '/api/resources', {
      name: 'Van 2',
      capacity: 8,
      seller: { id: shop.seller.id },
    });
    expect(made.statusCode).toBe(201);
  });

  it('are named by experiences: the seller’s own, each once', async () => {
    const boat = await resource('Named boat', 10);
    const other = await openShop(t.app);
    const theirs = await resource('Their boat', 10, other.seller);
    const tour = await experience(60, [900], [{ resource: { id: boat.id } }]);
    expect(tour.resources).toEqual([{ resource: { id: boat.id }, seatsPerGuest: 1 }]);
    const url = `/api/experiences/${tour.id}`;
    const bad = expectProblem(
      await put(shop.seller, url, { resources: [{ resource: { id: theirs.id } }] }),
      400,
      'validation_failed',
    );
    expect(bad.errors).toEqual([
      {
        in: 'body',
        name: 'resources.0.resource.id',
        detail: "is not a resource of the experience's seller",
      },
    ]);
    expectProblem(
      await put(shop.seller, url, {
        resources: [{ resource: { id: boat.id } }, { resource: { id: boat.id } }],
      }),
      400,
      'validation_failed',
    );
    expectProblem(
      await put(shop.seller, url, { resources: [{ resource: { id: boat.id }, seatsPerGuest: 0 }] }),
      400,
      'validation_failed',
    );
    const changed = await put(shop.seller, url, {
      resources: [{ resource: { id: boat.id }, seatsPerGuest: 2 }],
    });
    expect(changed.json().resources).toEqual([{ resource: { id: boat.id }, seatsPerGuest: 2 }]);
    expectProblem(
      await as(t.app, shop.seller, { method: 'DELETE', url: `/api/resources/${boat.id}` }),
      409,
      'resource_in_use',
    );
    expect((await put(shop.seller, url, { resources: [] })).json().resources).toEqual([]);
    expect(
      (await as(t.app, shop.seller, { method: 'DELETE', url: `/api/resources/${boat.id}` }))
        .statusCode,
    ).toBe(204);
  });
});

describe('a boat shared by two experiences', () => {
  let boat: { id: string; name: string };
  let morning: { id: string };
  let short: { id: string };

  beforeAll(async () => {
    boat = await resource('Shared boat', 12);
    // 09:00-11:00 and 14:00-16:00; 10:00-11:00, 11:00-12:00 and 15:00-16:00.
    morning = await experience(120, [900, 1400], [{ resource: { id: boat.id } }]);
    short = await experience(60, [1000, 1100, 1500], [{ resource: { id: boat.id } }]);
  });

  it('shares its seats between overlapping departures and refuses the excess naming it', async () => {
    expect((await book(t.app, customer, seat(morning.id, 900, 8))).statusCode).toBe(201);
    const full = await book(t.app, customer, seat(short.id, 1000, 5));
    const problem = expectProblem(full, 409, 'resource_full');
    expect(problem).toMatchObject({
      resource: { id: boat.id, name: 'Shared boat' },
      item: 0,
      seatsLeft: 4,
      event: { id: expect.any(String) },
    });
    expect(problem.detail).toContain('Shared boat');
    // A quote says the same, and shows the boat's room as the seats left.
    const prepare = (quantity: number) =>
      as(t.app, customer, {
        method: 'POST',
        url: '/api/orders/prepare',
        payload: seat(short.id, 1000, quantity),
      });
    expect(expectProblem(await prepare(5), 409, 'resource_full')).toMatchObject({
      seatsLeft: 4,
      item: 0,
    });
    expect((await prepare(2)).json().items[0].seatsLeft).toBe(4);
    expect((await book(t.app, customer, seat(short.id, 1000, 4))).statusCode).toBe(201);
    // 11:00-12:00 only touches 09:00-11:00 and 10:00-11:00: the whole boat is free then.
    expect((await book(t.app, customer, seat(short.id, 1100, 12))).statusCode).toBe(201);
    expectProblem(await book(t.app, customer, seat(morning.id, 900, 1)), 409, 'resource_full');
  });

  it('shows the smaller of the departure’s and the boat’s room in availability', async () => {
    const range = `start=${day}&end=${day}`;
    const short1 = (
      await get(customer, `/api/experiences/${short.id}/availability?${range}`)
    ).json();
    expect(short1[day]).toEqual({ '1000': 0, '1100': 0, '1500': 12 });
    const many = (
      await get(customer, `/api/availability?experience=${morning.id},${short.id}&${range}`)
    ).json();
    expect(many[morning.id][day]).toEqual({ '900': 0, '1400': 12 });
    expect(many[short.id][day]).toEqual(short1[day]);
  });

  it('shows OCTo resellers the boat’s room as vacancies, in availability and the calendar', async () => {
    const reseller = await createAffiliate(t.app, shop.seller);
    const ask = (url: string, body: object) =>
      octo(t.app, reseller.apiKey, 'POST', url, { optionId: 'DEFAULT', ...body });
    const range = { localDateStart: day, localDateEnd: day };
    const departures = (await ask('/availability', { productId: short.id, ...range })).json();
    expect(
      departures.map((a: { localDateTimeStart: string; vacancies: number; status: string }) => [
        a.localDateTimeStart.slice(11, 16),
        a.vacancies,
        a.status,
      ]),
    ).toEqual([
      ['10:00', 0, 'SOLD_OUT'],
      ['11:00', 0, 'SOLD_OUT'],
      ['15:00', 12, 'AVAILABLE'],
    ]);
    // 15:00 has 20 seats of its own but 12 on the boat (more than half): 13 seats do not fit.
    expect(departures[2].capacity).toBe(20);
    const [at15] = (
      await ask('/availability', {
        productId: short.id,
        availabilityIds: [departures[2].id],
        units: [{ id: 'adult', quantity: 13 }],
      })
    ).json();
    expect(at15).toMatchObject({ vacancies: 12, available: false });
    // A reserve beyond the boat is OCTo's UNPROCESSABLE_ENTITY naming it; within, it holds.
    const reserve = (quantity: number) =>
      ask('/bookings', {
        productId: short.id,
        availabilityId: at15.id,
        unitItems: Array.from({ length: quantity }, () => ({ unitId: 'adult' })),
      });
    const refused = await reserve(13);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'UNPROCESSABLE_ENTITY' });
    expect(refused.json().errorMessage).toContain('Shared boat');
    const held = await reserve(12);
    expect(held.json()).toMatchObject({ status: 'ON_HOLD' });
    expect(
      (await octo(t.app, reseller.apiKey, 'DELETE', `/bookings/${held.json().uuid}`)).statusCode,
    ).toBe(200);
    const [calendar] = (
      await ask('/availability/calendar', { productId: morning.id, ...range })
    ).json();
    // 09:00 is full on the boat; 14:00 has the whole boat.
    expect(calendar).toMatchObject({ localDate: day, vacancies: 12, available: true });
  });

  it('gives seats back with cancellations and changes, and checks changes against it', async () => {
    const later = (await book(t.app, customer, seat(morning.id, 1400, 10))).json();
    expectProblem(await book(t.app, customer, seat(short.id, 1500, 3)), 409, 'resource_full');
    const resize = await as(t.app, customer, {
      method: 'PATCH',
      url: `/api/orders/${later.id}`,
      payload: { items: [{ id: later.items[0].id, quantity: 13 }] },
    });
    expect(expectProblem(resize, 409, 'resource_full').resource).toMatchObject({ id: boat.id });
    const smaller = await as(t.app, customer, {
      method: 'PATCH',
      url: `/api/orders/${later.id}`,
      payload: { items: [{ id: later.items[0].id, quantity: 6 }] },
    });
    expect(smaller.statusCode).toBe(200);
    expect((await book(t.app, customer, seat(short.id, 1500, 6))).statusCode).toBe(201);
    expectProblem(await book(t.app, customer, seat(short.id, 1500, 1)), 409, 'resource_full');
    await as(t.app, customer, { method: 'POST', url: `/api/orders/${later.id}/cancel` });
    expect((await book(t.app, customer, seat(short.id, 1500, 6))).statusCode).toBe(201);
    expectProblem(
      await put(shop.seller, `/api/resources/${boat.id}`, { capacity: 11 }),
      409,
      'capacity_below_reserved',
    );
  });

  it('costs a booking two statements more: the lock and the read (its holds go with its writes)', async () => {
    const statements = await countStatements(() =>
      book(t.app, customer, {
        items: [
          { experience: { id: morning.id }, arrival: '2030-07-02', arrivalTime: 900, quantity: 1 },
        ],
      }),
    );
    expect(statements).toHaveLength(7);
    expect(
      statements.some((s) => s.includes('insert into "resource_seats"') && s.startsWith('with')),
    ).toBe(true);
  });

  it('counts seats per guest', async () => {
    const raft = await resource('Raft', 10);
    const kayak = await experience(60, [800], [{ resource: { id: raft.id }, seatsPerGuest: 3 }]);
    const full = expectProblem(
      await book(t.app, customer, seat(kayak.id, 800, 4)),
      409,
      'resource_full',
    );
    expect(full.seatsLeft).toBe(3);
    expect((await book(t.app, customer, seat(kayak.id, 800, 3))).statusCode).toBe(201);
    const range = `start=${day}&end=${day}`;
    expect(
      (await get(customer, `/api/experiences/${kayak.id}/availability?${range}`)).json()[day],
    ).toEqual({ '800': 0 });
  });
});

describe('a boat whose experiences change', () => {
  /** A boat of 10, two one-hour experiences on it, and 6 guests booked on the first. */
  async function twoOnABoat(name: string, firstAt: number, secondAt: number) {
    const boat = await resource(`${name} boat`, 10);
    const uses = [{ resource: { id: boat.id } }];
    const first = await experience(60, [firstAt], uses);
    const second = await experience(60, [secondAt], uses);
    expect((await book(t.app, customer, seat(first.id, firstAt, 6))).statusCode).toBe(201);
    return { boat, uses, first, second };
  }

  it('is freed by an experience that stops using it, and not filled again behind its back', async () => {
    const { uses, first: sunset, second: dawn, boat } = await twoOnABoat('Swapped', 700, 700);
    expectProblem(await book(t.app, customer, seat(dawn.id, 700, 5)), 409, 'resource_full');
    // The sunset tour moves to another boat: its departure no longer holds this one.
    expect(
      (await put(shop.seller, `/api/experiences/${sunset.id}`, { resources: [] })).statusCode,
    ).toBe(200);
    const freed = await book(t.app, customer, seat(dawn.id, 700, 10));
    expect(freed.statusCode, freed.body).toBe(201);
    // Back on this boat, now full: its departure's 6 guests would be counted at once, and
    // do not fit beside the dawn tour's 10 (docs/resources.md).
    const back = await put(shop.seller, `/api/experiences/${sunset.id}`, { resources: uses });
    expectProblem(back, 409, 'resource_full');
    const held = await t.database.db
      .selectFrom('resource_seats')
      .select((eb) => eb.fn.sum<string>('seats').as('seats'))
      .where('resource_id', '=', boat.id)
      .executeTakeFirstOrThrow();
    expect(Number(held.seats)).toBe(10);
  });

  it('follows an event whose window grew, and refuses a window the boat cannot carry', async () => {
    const { uses, first: long, second: late, boat } = await twoOnABoat('Window', 1700, 1800);
    expect((await book(t.app, customer, seat(late.id, 1800, 4))).statusCode).toBe(201);
    const upsert = () =>
      post(shop.seller, '/api/events', { experience: { id: long.id }, start: `${day}T17:00:00Z` });
    // Two hours from now on: 17:00-19:00 would carry 6 + 4 at 18:00, within 10.
    expect(
      (await put(shop.seller, `/api/experiences/${long.id}`, { duration: 120 })).statusCode,
    ).toBe(200);
    const grown = await upsert();
    expect(grown.statusCode, grown.body).toBe(201);
    expect(Date.parse(grown.json().end)).toBe(Date.parse(`${day}T19:00:00Z`));
    // The boat is full at 18:00 now: the late tour's next seat is refused.
    expectProblem(await book(t.app, customer, seat(late.id, 1800, 1)), 409, 'resource_full');
    // Another hour with a late departure full: the longer window no longer fits.
    const later = await experience(60, [1900], uses);
    expect((await book(t.app, customer, seat(later.id, 1900, 5))).statusCode).toBe(201);
    expect(
      (await put(shop.seller, `/api/experiences/${long.id}`, { duration: 180 })).statusCode,
    ).toBe(200);
    const refused = expectProblem(await upsert(), 409, 'resource_full');
    expect(refused).toMatchObject({ resource: { id: boat.id }, seatsLeft: 0 });
    expect(refused.detail).toContain('6 guests');
    const event = (await get(shop.seller, `/api/events/${grown.json().id}`)).json();
    expect(Date.parse(event.end)).toBe(Date.parse(`${day}T19:00:00Z`));
  });
});
