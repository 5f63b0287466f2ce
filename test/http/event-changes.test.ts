/**
 * `PATCH /api/events/{id}` (capacity) and `DELETE /api/events/{id}` (only an event no order
 * booked): the seller's event staff only; every refusal changes nothing.
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
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { createEvent, delegate } from '../helpers/guides.js';

let t: TestApp;
let shop: Shop;
let customer: Account;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
  customer = await signUp(t.app);
});
afterAll(async () => t.close());

const patch = (account: Account, id: string, payload: Record<string, unknown>) =>
  as(t.app, account, { method: 'PATCH', url: `/api/events/${id}`, payload });
const remove = (account: Account, id: string) =>
  as(t.app, account, { method: 'DELETE', url: `/api/events/${id}` });

describe('PATCH /api/events/{id}', () => {
  it('changes the capacity, never below the seats reserved; 0 closes it', async () => {
    const booked = await book(t.app, customer, {
      items: [item(shop.experienceId, '2030-07-01', 900, 3)],
    });
    const eventId = booked.json().items[0].event.id;
    const raised = await patch(shop.seller, eventId, { max: 20 });
    expect(raised.json()).toMatchObject({ max: 20, quantity: { reserved: 3 }, open: 17 });
    const below = await patch(shop.seller, eventId, { max: 2 });
    expect(expectProblem(below, 409, 'capacity_below_reserved').errors?.[0]?.name).toBe('max');
    expect((await patch(shop.seller, eventId, { max: 3 })).json()).toMatchObject({ open: 0 });
    expectProblem(
      await book(t.app, customer, { items: [item(shop.experienceId, '2030-07-01', 900, 1)] }),
      409,
      'capacity_exceeded',
    );
    expect((await patch(shop.seller, eventId, { max: null })).json()).toMatchObject({
      max: null,
      open: null,
    });
  });

  it('lets only the seller’s event staff change it; refusals change nothing', async () => {
    const event = await createEvent(t.app, shop.seller, shop.experienceId, '2030-07-02T09:00');
    const staff = await delegate(t.app, shop.seller, ['ROLE_RESERVATION'], 'Desk');
    expect((await patch(staff, event.id, { max: 5 })).json().max).toBe(5);
    const curator = await delegate(t.app, shop.seller, ['ROLE_CURATOR'], 'Curator');
    expect((await patch(curator, event.id, { max: 6 })).statusCode).toBe(200);
    expectProblem(await patch(customer, event.id, { max: 50 }), 404, 'not_found');
    const other = await openShop(t.app);
    expectProblem(await patch(other.seller, event.id, { max: 50 }), 404, 'not_found');
    for (const payload of [{}, { max: -1 }, { max: 'ten' }, { start: '2030-07-03T09:00' }]) {
      expectProblem(await patch(shop.seller, event.id, payload), 400, 'validation_failed');
    }
    expectProblem(await patch(shop.seller, 'f'.repeat(24), { max: 1 }), 404, 'not_found');
    const read = await as(t.app, shop.seller, { method: 'GET', url: `/api/events/${event.id}` });
    expect(read.json().max).toBe(6);
  });
});

describe('PATCH /api/events/{id} with manual', () => {
  const seatsOn = async (date: string) =>
    (
      await as(t.app, null, {
        method: 'GET',
        url: `/api/experiences/${shop.experienceId}/availability?start=${date}&end=${date}`,
      })
    ).json()[date];

  it('closes a departure (manual: false) to new bookings and quotes, and reopens it', async () => {
    const booked = await book(t.app, customer, {
      items: [item(shop.experienceId, '2030-07-05', 900, 2)],
    });
    const eventId = booked.json().items[0].event.id;
    const closed = await patch(shop.seller, eventId, { manual: false });
    expect(closed.json()).toMatchObject({
      manual: false,
      max: 10,
      open: 0,
      quantity: { reserved: 2 },
    });
    expect(await seatsOn('2030-07-05')).toEqual({ '900': 0, '1400': 10 });
    const refused = expectProblem(
      await book(t.app, customer, { items: [item(shop.experienceId, '2030-07-05', 900, 1)] }),
      409,
      'capacity_exceeded',
    );
    expect(refused).toMatchObject({ seatsLeft: 0 });
    expectProblem(
      await as(t.app, customer, {
        method: 'POST',
        url: '/api/orders/prepare',
        payload: { items: [item(shop.experienceId, '2030-07-05', 900, 1)] },
      }),
      409,
      'capacity_exceeded',
    );
    // The booked order is untouched and can still be canceled (its seats come back).
    const order = await as(t.app, customer, {
      method: 'GET',
      url: `/api/orders/${booked.json().id}`,
    });
    expect(order.json().status).toBe('confirmed');
    const reopened = await patch(shop.seller, eventId, { manual: null });
    expect(reopened.json()).toMatchObject({ manual: null, open: 8 });
    expect(await seatsOn('2030-07-05')).toEqual({ '900': 8, '1400': 10 });
    expect(
      (await book(t.app, customer, { items: [item(shop.experienceId, '2030-07-05', 900, 1)] }))
        .statusCode,
    ).toBe(201);
  });

  it('opens a departure the schedules do not offer (manual: true, Xola’s reopen)', async () => {
    const offSchedule = item(shop.experienceId, '2030-07-06', 1130, 2);
    expectProblem(await book(t.app, customer, { items: [offSchedule] }), 409, 'not_scheduled');
    const event = await createEvent(t.app, shop.seller, shop.experienceId, '2030-07-06T11:30');
    expectProblem(await book(t.app, customer, { items: [offSchedule] }), 409, 'not_scheduled');
    expect(await seatsOn('2030-07-06')).toEqual({ '900': 10, '1400': 10 });
    const opened = await patch(shop.seller, event.id, { manual: true, max: 4 });
    expect(opened.json()).toMatchObject({ manual: true, max: 4, open: 4 });
    expect(await seatsOn('2030-07-06')).toEqual({ '900': 10, '1130': 4, '1400': 10 });
    const booked = await book(t.app, customer, { items: [offSchedule] });
    expect(booked.statusCode).toBe(201);
    expect(booked.json().items[0].event.id).toBe(event.id);
    expect(await seatsOn('2030-07-06')).toEqual({ '900': 10, '1130': 2, '1400': 10 });
    expectProblem(
      await book(t.app, customer, { items: [{ ...offSchedule, quantity: 3 }] }),
      409,
      'capacity_exceeded',
    );
    // Back to the schedules: the booked seats stay, new bookings are refused again.
    await patch(shop.seller, event.id, { manual: null });
    expectProblem(await book(t.app, customer, { items: [offSchedule] }), 409, 'not_scheduled');
    const read = await as(t.app, shop.seller, { method: 'GET', url: `/api/events/${event.id}` });
    expect(read.json()).toMatchObject({ quantity: { reserved: 2 }, manual: null });
  });

  it('refuses a manual that is not a boolean or null, and changes nothing', async () => {
    const event = await createEvent(t.app, shop.seller, shop.experienceId, '2030-07-07T09:00');
    for (const manual of ['yes', 1, {}]) {
      expectProblem(await patch(shop.seller, event.id, { manual }), 400, 'validation_failed');
    }
    expectProblem(await patch(customer, event.id, { manual: false }), 404, 'not_found');
    const read = await as(t.app, shop.seller, { method: 'GET', url: `/api/events/${event.id}` });
    expect(read.json().manual).toBeNull();
  });
});

describe('DELETE /api/events/{id}', () => {
  it('deletes an event no order booked', async () => {
    const event = await createEvent(t.app, shop.seller, shop.experienceId, '2030-07-04T09:00');
    expectProblem(await remove(customer, event.id), 404, 'not_found');
    const deleted = await remove(shop.seller, event.id);
    expect(deleted.statusCode).toBe(204);
    expectProblem(
      await as(t.app, shop.seller, { method: 'GET', url: `/api/events/${event.id}` }),
      404,
      'not_found',
    );
    expectProblem(await remove(shop.seller, event.id), 404, 'not_found');
  });

  it('keeps an event that orders booked, canceled ones too (409)', async () => {
    const order = (
      await book(t.app, customer, { items: [item(shop.experienceId, '2030-07-05', 900, 1)] })
    ).json();
    const eventId = order.items[0].event.id;
    expectProblem(await remove(shop.seller, eventId), 409, 'event_has_bookings');
    await as(t.app, customer, { method: 'POST', url: `/api/orders/${order.id}/cancel` });
    expectProblem(await remove(shop.seller, eventId), 409, 'event_has_bookings');
    const still = await as(t.app, shop.seller, { method: 'GET', url: `/api/events/${eventId}` });
    expect(still.statusCode).toBe(200);
  });
});
