/**
 * OCTo's booking lifecycle at /octo as OCTo's validator runs it, every answer checked against
 * the specification: reserve -> extend -> confirm -> update -> cancel on a seller with two
 * products, get and list by both references, a sold-out departure, and each error code on
 * its trigger; a repeated reserve with the same uuid, a repeated confirmation, no email of
 * ours, and a booking with a guest on board neither cancelled nor resized. Holds that
 * expire: octo-holds.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp } from '../helpers/app.js';
import {
  expectOctoError,
  expectSpec,
  octo,
  openOctoShop,
  today,
  type OctoShop,
} from '../helpers/octo.js';

let t: TestApp;
let shop: OctoShop;
/** Two available departures of each product, and the kayak's sold-out one. */
let tourIds: string[];
let kayakIds: string[];
let soldOut: string;

const send = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
  capabilities?: string,
) => octo(t.app, shop.reseller.apiKey, method, url, body, capabilities);

async function availability(productId: string): Promise<{ id: string; status: string }[]> {
  const response = await send('POST', '/availability', {
    productId,
    optionId: 'DEFAULT',
    localDateStart: today(1),
    localDateEnd: today(30),
  });
  expectSpec('Availabilities_AvailabilityCheck', response.json());
  return response.json();
}

beforeAll(async () => {
  t = await createTestApp();
  shop = await openOctoShop(t.app);
  tourIds = (await availability(shop.tour)).slice(0, 3).map((a) => a.id);
  const kayak = await availability(shop.kayak);
  kayakIds = kayak.slice(0, 2).map((a) => a.id);
  // The kayak's last departure of the range sold out, through Xola's API.
  soldOut = kayak.at(-1)!.id;
  const [date, time] = [soldOut.slice(0, 10), Number(soldOut.slice(11, 16).replace(':', ''))];
  const booked = await as(t.app, shop.seller, {
    method: 'POST',
    url: '/api/orders',
    payload: {
      customerName: 'Walk In',
      items: [{ experience: { id: shop.kayak }, arrival: date, arrivalTime: time, quantity: 4 }],
    },
  });
  expect(booked.statusCode).toBe(201);
});
afterAll(async () => t.close());

const reserve = (body: Record<string, unknown>, capabilities?: string) =>
  send('POST', '/bookings', { productId: shop.tour, optionId: 'DEFAULT', ...body }, capabilities);

describe('the OCTo booking lifecycle', () => {
  it('reserves, extends, confirms, updates and cancels', async () => {
    const reserved = await reserve({
      availabilityId: tourIds[0],
      unitItems: [{ unitId: shop.adult }, { unitId: shop.child }],
    });
    expect(reserved.statusCode).toBe(200);
    const held = reserved.json();
    expectSpec('Bookings_BookingReservation', held);
    expect(held).toMatchObject({
      status: 'ON_HOLD',
      productId: shop.tour,
      optionId: 'DEFAULT',
      availabilityId: tourIds[0],
      utcConfirmedAt: null,
      cancellation: null,
    });
    expect(held.unitItems.map((u: { unitId: string }) => u.unitId)).toEqual([
      shop.adult,
      shop.child,
    ]);
    expect(new Set(held.unitItems.map((u: { uuid: string }) => u.uuid)).size).toBe(2);
    // Tickets are delivered only once confirmed.
    expect(held.unitItems[0].ticket.deliveryOptions).toEqual([]);

    const extension = await send('POST', `/bookings/${held.uuid}/extend`, {
      expirationMinutes: 31,
    });
    expect(extension.statusCode, extension.body).toBe(200);
    const extended = extension.json();
    expectSpec('Bookings_ExtendReservation', extended);
    expect(extended.status).toBe('ON_HOLD');
    expect(Date.parse(extended.utcExpiresAt)).toBeGreaterThan(Date.parse(held.utcExpiresAt));

    const contact = {
      fullName: 'John Doe',
      firstName: 'John',
      lastName: 'Doe',
      emailAddress: 'john@example.com',
      phoneNumber: '+33 6 12 34 56 78',
      locales: ['en'],
      country: 'FR',
      notes: 'Test note',
    };
    const confirmed = await send('POST', `/bookings/${held.uuid}/confirm`, {
      contact,
      resellerReference: 'RES-1',
      unitItems: [{ unitId: shop.adult }, { unitId: shop.adult }, { unitId: shop.child }],
    });
    expect(confirmed.statusCode).toBe(200);
    const booking = confirmed.json();
    expectSpec('Bookings_BookingConfirmation', booking);
    expect(booking).toMatchObject({
      status: 'CONFIRMED',
      resellerReference: 'RES-1',
      utcExpiresAt: null,
      cancellation: null,
      contact: { fullName: 'John Doe', emailAddress: 'john@example.com', notes: 'Test note' },
    });
    expect(booking.utcConfirmedAt).toEqual(expect.any(String));
    expect(booking.unitItems).toHaveLength(3);
    const code = booking.unitItems[0].ticket.deliveryOptions[0];
    expect(code).toMatchObject({
      deliveryFormat: 'QRCODE',
      deliveryValue: expect.stringMatching(/^[0-9a-f]{32}$/),
    });

    // Seen from Xola's API: one order of one item, its source the reseller's name.
    const order = (
      await as(t.app, shop.seller, { method: 'GET', url: `/api/orders/${booking.id}` })
    ).json();
    expect(order).toMatchObject({ source: 'Klook', customerName: 'John Doe' });
    expect(order.items[0]).toMatchObject({ status: 200, quantity: 3 });

    const updated = await send('PATCH', `/bookings/${held.uuid}`, {
      productId: shop.kayak,
      optionId: 'DEFAULT',
      availabilityId: kayakIds[0],
      unitItems: [{ unitId: 'adult' }, { unitId: 'adult' }, { unitId: 'adult' }],
      notes: 'Window seat',
      contact: { ...contact, fullName: 'Jane Doe' },
    });
    expect(updated.statusCode).toBe(200);
    const moved = updated.json();
    expectSpec('Bookings_BookingUpdate', moved);
    expect(moved).toMatchObject({
      status: 'CONFIRMED',
      productId: shop.kayak,
      availabilityId: kayakIds[0],
      notes: 'Window seat',
      contact: { fullName: 'Jane Doe' },
    });
    expect(moved.unitItems).toHaveLength(3);

    for (const query of [
      `resellerReference=RES-1`,
      `supplierReference=${booking.supplierReference}`,
      `localDate=${kayakIds[0]!.slice(0, 10)}`,
    ]) {
      const list = await send('GET', `/bookings?${query}`);
      expectSpec('Bookings_GetBookings', list.json());
      expect(list.json().map((b: { uuid: string }) => b.uuid)).toContain(held.uuid);
    }
    expectSpec('Bookings_GetBooking', (await send('GET', `/bookings/${held.uuid}`)).json());

    const cancelled = await send('POST', `/bookings/${held.uuid}/cancel`, {
      reason: 'Plans changed',
    });
    expect(cancelled.statusCode).toBe(200);
    const ended = cancelled.json();
    expectSpec('Bookings_BookingCancellation', ended);
    expect(ended).toMatchObject({
      status: 'CANCELLED',
      utcExpiresAt: null,
      cancellation: { refund: 'FULL', reason: 'Plans changed' },
    });
    // Cancelling again answers the booking as it is.
    expect((await send('DELETE', `/bookings/${held.uuid}`)).json().status).toBe('CANCELLED');
  });

  it('cancels a hold; answers a repeated reserve as the same booking', async () => {
    const body = {
      uuid: '6c6b5d6e-3c1f-4d33-8d4a-0b7c0e1f2a3b',
      availabilityId: tourIds[1],
      unitItems: [{ unitId: shop.adult }],
    };
    const first = (await reserve(body)).json();
    const again = (await reserve(body)).json();
    expect(again.id).toBe(first.id);
    expect(again.uuid).toBe(body.uuid);
    expectOctoError(await reserve({ ...body, notes: 'another' }), 'INVALID_BOOKING_UUID');
    const cancelled = (await send('DELETE', `/bookings/${first.uuid}`, { reason: 'no' })).json();
    expectSpec('Bookings_BookingCancellation', cancelled);
    expect(cancelled.status).toBe('CANCELLED');
  });

  it('answers a confirmation sent again with the booking as it is', async () => {
    const held = (
      await reserve({ availabilityId: tourIds[2], unitItems: [{ unitId: shop.adult }] })
    ).json();
    const body = { contact: { fullName: 'Retry Ann' } };
    const first = await send('POST', `/bookings/${held.uuid}/confirm`, body);
    expect(first.statusCode, first.body).toBe(200);
    const again = await send('POST', `/bookings/${held.uuid}/confirm`, body);
    expect(again.statusCode, again.body).toBe(200);
    expectSpec('Bookings_BookingConfirmation', again.json());
    expect(again.json()).toEqual(first.json());
    // Once cancelled, a confirmation is refused again.
    await send('POST', `/bookings/${held.uuid}/cancel`, {});
    expectOctoError(
      await send('POST', `/bookings/${held.uuid}/confirm`, body),
      'UNPROCESSABLE_ENTITY',
    );
  });

  it('queues no email of ours for a reseller booking, whatever contact it carries', async () => {
    const contact = { fullName: 'Mail Target', emailAddress: 'guest@example.org' };
    const mail = async (orderId: string) =>
      t.database.db.selectFrom('outbox').select('kind').where('order_id', '=', orderId).execute();
    const held = (
      await reserve({ availabilityId: tourIds[2], unitItems: [{ unitId: shop.adult }], contact })
    ).json();
    expect(held.status).toBe('ON_HOLD');
    expect(await mail(held.id)).toEqual([]);
    await send('POST', `/bookings/${held.uuid}/confirm`, { contact });
    await send('POST', `/bookings/${held.uuid}/cancel`, { reason: 'changed plans' });
    expect(await mail(held.id)).toEqual([]);
  });

  it('prices bookings and unit items under octo/pricing, net from the commission', async () => {
    const priced = await reserve(
      { availabilityId: tourIds[2], unitItems: [{ unitId: shop.adult }, { unitId: shop.child }] },
      'octo/pricing',
    );
    const booking = priced.json();
    expectSpec('Bookings_BookingReservation', booking);
    expect(booking.pricing).toMatchObject({ retail: 3750, net: 3282, currencyPrecision: 2 });
    expect(booking.unitItems.map((u: { pricing: { retail: number } }) => u.pricing.retail)).toEqual(
      [2500, 1250],
    );
  });

  it('answers each error code on its trigger', async () => {
    const units = [{ unitId: shop.adult }];
    expectOctoError(
      await reserve({
        productId: 'invalidProductId',
        availabilityId: tourIds[0],
        unitItems: units,
      }),
      'INVALID_PRODUCT_ID',
    );
    expectOctoError(
      await reserve({ optionId: 'invalidOptionId', availabilityId: tourIds[0], unitItems: units }),
      'INVALID_OPTION_ID',
    );
    expectOctoError(
      await reserve({ availabilityId: 'invalidAvailabilityId', unitItems: units }),
      'INVALID_AVAILABILITY_ID',
    );
    expectOctoError(
      await reserve({ availabilityId: tourIds[0], unitItems: [{ unitId: 'invalidUnitId' }] }),
      'INVALID_UNIT_ID',
    );
    expectOctoError(await reserve({ availabilityId: tourIds[0] }), 'UNPROCESSABLE_ENTITY');
    expectOctoError(
      await reserve({ availabilityId: tourIds[0], unitItems: [] }),
      'UNPROCESSABLE_ENTITY',
    );
    expectOctoError(
      await send('POST', '/bookings', {
        productId: shop.kayak,
        optionId: 'DEFAULT',
        availabilityId: soldOut,
        unitItems: [{ unitId: 'adult' }],
      }),
      'UNPROCESSABLE_ENTITY',
    );
    for (const path of ['/extend', '/confirm', '/cancel', ''])
      expectOctoError(
        await send(
          path === '' ? 'GET' : 'POST',
          `/bookings/invalidUUID${path}`,
          path === '/confirm' ? { contact: {} } : path === '' ? undefined : {},
        ),
        'INVALID_BOOKING_UUID',
      );
    expectOctoError(
      await send('POST', '/bookings/0c0b5d6e-3c1f-4d33-8d4a-0b7c0e1f2a3b/confirm', { contact: {} }),
      'INVALID_BOOKING_UUID',
    );
    expectOctoError(await send('GET', '/bookings'), 'BAD_REQUEST');
    const held = (await reserve({ availabilityId: tourIds[0], unitItems: units })).json();
    expectOctoError(
      await send('POST', `/bookings/${held.uuid}/confirm`, {
        contact: {},
        unitItems: [{ unitId: 'invalidUnitId' }],
      }),
      'INVALID_UNIT_ID',
    );
  });
});

describe('check-in (issue 29) as OCTo shows it', () => {
  /** A confirmed booking of two adults at the tour's second departure. */
  async function confirmedPair(fullName: string) {
    const held = (
      await reserve({
        availabilityId: tourIds[1],
        unitItems: [{ unitId: shop.adult }, { unitId: shop.adult }],
      })
    ).json();
    const booking = (
      await send('POST', `/bookings/${held.uuid}/confirm`, { contact: { fullName } })
    ).json();
    expect(booking.status).toBe('CONFIRMED');
    return { held, booking };
  }
  const ticketOf = (unitItem: { ticket: { deliveryOptions: { deliveryValue: string }[] } }) =>
    unitItem.ticket.deliveryOptions[0]!.deliveryValue;
  // The departure is on another day than today: the dock forces it.
  const scan = (code: string) =>
    as(t.app, shop.seller, {
      method: 'POST',
      url: '/api/checkins',
      payload: { code, force: true },
    });

  it('shows a scanned unit item REDEEMED with utcRedeemedAt, the booking once every seat is', async () => {
    const { held, booking } = await confirmedPair('Dock Guest');
    const first = await scan(ticketOf(booking.unitItems[0]));
    expect(first.statusCode, first.body).toBe(201);

    const one = (await send('GET', `/bookings/${held.uuid}`)).json();
    expectSpec('Bookings_GetBooking', one);
    expect(one.status).toBe('CONFIRMED');
    expect(one.unitItems[0]).toMatchObject({ status: 'REDEEMED' });
    expect(Date.parse(one.unitItems[0].utcRedeemedAt)).not.toBeNaN();
    expect(one.unitItems[1]).toMatchObject({ status: 'CONFIRMED', utcRedeemedAt: null });

    expect((await scan(ticketOf(booking.unitItems[1]))).statusCode).toBe(201);
    const all = (await send('GET', `/bookings/${held.uuid}`)).json();
    expectSpec('Bookings_GetBooking', all);
    expect(all.status).toBe('REDEEMED');
    expect(all.unitItems.map((u: { status: string }) => u.status)).toEqual([
      'REDEEMED',
      'REDEEMED',
    ]);
    expect(Date.parse(all.utcRedeemedAt)).not.toBeNaN();
  });

  it('refuses to cancel, move or resize a booking once one guest is on board', async () => {
    const { held, booking } = await confirmedPair('On Board');
    expect(booking.cancellable).toBe(true);
    expect((await scan(ticketOf(booking.unitItems[0]))).statusCode).toBe(201);
    const boarded = (await send('GET', `/bookings/${held.uuid}`)).json();
    expect(boarded).toMatchObject({ status: 'CONFIRMED', cancellable: false });

    expectOctoError(
      await send('POST', `/bookings/${held.uuid}/cancel`, { reason: 'refund me' }),
      'UNPROCESSABLE_ENTITY',
    );
    expectOctoError(await send('DELETE', `/bookings/${held.uuid}`), 'UNPROCESSABLE_ENTITY');
    expectOctoError(
      await send('PATCH', `/bookings/${held.uuid}`, { unitItems: [{ unitId: shop.adult }] }),
      'UNPROCESSABLE_ENTITY',
    );
    expectOctoError(
      await send('PATCH', `/bookings/${held.uuid}`, { availabilityId: tourIds[2] }),
      'UNPROCESSABLE_ENTITY',
    );
    // Nothing changed: both seats, the check-in kept, the seats still taken.
    const after = (await send('GET', `/bookings/${held.uuid}`)).json();
    expect(after.unitItems.map((u: { status: string }) => u.status)).toEqual([
      'REDEEMED',
      'CONFIRMED',
    ]);
    expect(after.availabilityId).toBe(tourIds[1]);
    // What does not touch the seats may still change.
    const renamed = await send('PATCH', `/bookings/${held.uuid}`, {
      contact: { fullName: 'On Board Renamed' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().contact.fullName).toBe('On Board Renamed');
  });
});
