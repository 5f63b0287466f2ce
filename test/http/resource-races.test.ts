/**
 * What departures hold of a shared boat follows their experience's changes at once
 * (docs/resources.md), on both databases: a new `seatsPerGuest` counts again what they
 * already booked (409 resource_full when the boat cannot carry it), a resource added counts
 * them too, so a quote, availability and the booking agree, and availability counts a
 * departure over its event's window, not over the duration its experience has since. The
 * races with bookings in flight are in test/postgres/resource-races.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { book } from '../helpers/booking.js';
import { createBoat, createExperienceOn, type ResourceUses } from '../helpers/resources.js';

let t: TestApp;
let seller: Account;
let customer: Account;

beforeAll(async () => {
  t = await createTestApp();
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  customer = await signUp(t.app);
});
afterAll(async () => t.close());

const boat = (capacity: number) => createBoat(t.app, seller, capacity);
const experience = (resources: ResourceUses, duration = 60, time = 900) =>
  createExperienceOn(t.app, seller, resources, { duration, times: [time] });

const ARRIVAL = '2030-08-01';
const NEXT_DAY = '2030-08-02';
const items = (experienceId: string, quantity: number, arrivalTime = 900, arrival = ARRIVAL) => ({
  items: [{ experience: { id: experienceId }, arrival, arrivalTime, quantity }],
});
const bookOn = (experienceId: string, quantity: number, arrivalTime = 900, arrival = ARRIVAL) =>
  book(t.app, customer, items(experienceId, quantity, arrivalTime, arrival));
const put = (experienceId: string, payload: Record<string, unknown>) =>
  as(t.app, seller, { method: 'PUT', url: `/api/experiences/${experienceId}`, payload });

/** The seats departures hold of a resource, added up. */
async function held(resourceId: string): Promise<number> {
  const row = await t.database.db
    .selectFrom('resource_seats')
    .select(({ fn }) => fn.sum<number>('seats').as('seats'))
    .where('resource_id', '=', resourceId)
    .executeTakeFirstOrThrow();
  return Number(row.seats ?? 0);
}

async function availableAt(
  experienceId: string,
  hhmm: string,
  date = ARRIVAL,
): Promise<number | null> {
  const response = await as(t.app, null, {
    method: 'GET',
    url: `/api/experiences/${experienceId}/availability?start=${date}&end=${date}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json()[date][hhmm];
}

describe('seatsPerGuest changed on an experience with bookings', () => {
  it('raising it counts the guests booked again: the boat has no room left for others', async () => {
    const id = await boat(10);
    const x = await experience([{ resource: { id }, seatsPerGuest: 1 }]);
    const y = await experience([{ resource: { id } }]);
    expect((await bookOn(x, 5)).statusCode).toBe(201);
    const raised = await put(x, { resources: [{ resource: { id }, seatsPerGuest: 2 }] });
    expect(raised.statusCode, raised.body).toBe(200);
    expect(await held(id)).toBe(10);
    const other = await bookOn(y, 5);
    expect(other.statusCode, other.body).toBe(409);
    expect(other.json().code).toBe('resource_full');
    expect(await availableAt(x, '900')).toBe(0);
  });

  it('refuses a value the boat cannot carry for the guests booked (409 resource_full)', async () => {
    const id = await boat(10);
    const x = await experience([{ resource: { id }, seatsPerGuest: 1 }]);
    const booked = await bookOn(x, 6);
    expect(booked.statusCode).toBe(201);
    const raised = await put(x, { resources: [{ resource: { id }, seatsPerGuest: 2 }] });
    expect(raised.statusCode, raised.body).toBe(409);
    expect(raised.json()).toMatchObject({
      code: 'resource_full',
      resource: { id, name: 'Shared boat' },
      event: { id: booked.json().items[0].event.id },
    });
    const after = await as(t.app, seller, { method: 'GET', url: `/api/experiences/${x}` });
    expect(after.json().resources).toEqual([{ resource: { id }, seatsPerGuest: 1 }]);
    expect(await held(id)).toBe(6);
  });

  it('lowering it frees the places its guests no longer take', async () => {
    const id = await boat(10);
    const x = await experience([{ resource: { id }, seatsPerGuest: 2 }]);
    const y = await experience([{ resource: { id } }]);
    expect((await bookOn(x, 4)).statusCode).toBe(201);
    expect((await put(x, { resources: [{ resource: { id }, seatsPerGuest: 1 }] })).statusCode).toBe(
      200,
    );
    expect(await held(id)).toBe(4);
    const other = await bookOn(y, 6);
    expect(other.statusCode, other.body).toBe(201);
    expect(await held(id)).toBe(10);
  });
});

describe('a resource added to an experience with bookings', () => {
  it('holds what its departures booked: quote, availability and booking agree', async () => {
    const id = await boat(10);
    const x = await experience([]);
    const y = await experience([{ resource: { id } }]);
    const order = await bookOn(x, 8);
    expect(order.statusCode).toBe(201);
    const added = await put(x, { resources: [{ resource: { id } }] });
    expect(added.statusCode, added.body).toBe(200);
    expect(await held(id)).toBe(8);
    const other = await bookOn(y, 5);
    expect(other.statusCode, other.body).toBe(409);
    expect(other.json()).toMatchObject({ code: 'resource_full', seatsLeft: 2 });
    expect(await availableAt(x, '900')).toBe(2);
    const quote = await as(t.app, customer, {
      method: 'POST',
      url: '/api/orders/prepare',
      payload: items(x, 1),
    });
    expect(quote.json().items[0].seatsLeft).toBe(2);
    expect((await bookOn(x, 2)).statusCode).toBe(201);
    expect(await held(id)).toBe(10);
    // Given back, counted back: the resize down frees a place on the boat.
    const { id: orderId, items: booked } = order.json();
    const down = await as(t.app, customer, {
      method: 'PUT',
      url: `/api/orders/${orderId}`,
      payload: { items: [{ id: booked[0].id, quantity: 7 }] },
    });
    expect(down.statusCode, down.body).toBe(200);
    expect(await held(id)).toBe(9);
    expect((await bookOn(y, 1)).statusCode).toBe(201);
  });

  it('is refused when the resource cannot carry them (409 resource_full)', async () => {
    const id = await boat(10);
    const x = await experience([]);
    const y = await experience([{ resource: { id } }]);
    expect((await bookOn(y, 5)).statusCode).toBe(201);
    expect((await bookOn(x, 8)).statusCode).toBe(201);
    const added = await put(x, { resources: [{ resource: { id } }] });
    expect(added.statusCode, added.body).toBe(409);
    expect(added.json()).toMatchObject({ code: 'resource_full', resource: { id } });
    expect(await held(id)).toBe(5);
    const after = await as(t.app, seller, { method: 'GET', url: `/api/experiences/${x}` });
    expect(after.json().resources).toEqual([]);
  });
});

describe("availability over a departure's own window", () => {
  it("counts the event's window after its experience's duration changed", async () => {
    const id = await boat(10);
    const x = await experience([{ resource: { id } }], 60, 900);
    const y = await experience([{ resource: { id } }], 60, 1000);
    expect((await bookOn(x, 5)).statusCode).toBe(201);
    expect((await bookOn(y, 10, 1000)).statusCode).toBe(201);
    expect((await bookOn(y, 10, 1000, NEXT_DAY)).statusCode).toBe(201);
    expect((await put(x, { duration: 120 })).statusCode).toBe(200);
    // The event keeps 09:00-10:00: the upsert that would move it to 11:00 is refused.
    const upsert = await as(t.app, seller, {
      method: 'POST',
      url: '/api/events',
      payload: { experience: { id: x }, start: `${ARRIVAL}T09:00:00Z` },
    });
    expect(upsert.statusCode, upsert.body).toBe(409);
    expect(upsert.json().code).toBe('resource_full');
    // Over 09:00-10:00 the boat has 5 places left: availability and a quote say so, and a
    // booking gets them.
    expect(await availableAt(x, '900')).toBe(5);
    const quote = await as(t.app, customer, {
      method: 'POST',
      url: '/api/orders/prepare',
      payload: items(x, 5),
    });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json().items[0].seatsLeft).toBe(5);
    expect((await bookOn(x, 5)).statusCode).toBe(201);
    expect(await availableAt(x, '900')).toBe(0);
    // A departure with no event yet would be made with the new duration: 09:00-11:00.
    expect(await availableAt(x, '900', NEXT_DAY)).toBe(0);
    expect((await bookOn(x, 1, 900, NEXT_DAY)).json().code).toBe('resource_full');
  });
});
