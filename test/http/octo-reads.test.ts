/**
 * OCTo's reads at /octo against the public specification (test/helpers/octo-spec.ts): the
 * supplier, capabilities, products, availability and calendar, each answer checked against
 * the operation's schema, with and without octo/pricing; the errors OCTo's validator
 * expects on their triggers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import {
  createExperience,
  daily,
  expectOctoError,
  expectSpec,
  octo,
  openOctoShop,
  today,
  type OctoShop,
} from '../helpers/octo.js';

let t: TestApp;
let shop: OctoShop;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openOctoShop(t.app);
});
afterAll(async () => t.close());

const get = (url: string, capabilities?: string) =>
  octo(t.app, shop.reseller.apiKey, 'GET', url, undefined, capabilities);
const post = (url: string, body: unknown, capabilities?: string) =>
  octo(t.app, shop.reseller.apiKey, 'POST', url, body, capabilities);

describe('OCTo reads', () => {
  it('answers the supplier, capabilities and products as the specification has them', async () => {
    const supplier = await get('/supplier');
    expect(supplier.statusCode).toBe(200);
    expectSpec('Suppliers_get', supplier.json());
    expect(supplier.json()).toMatchObject({ id: shop.seller.id, name: 'Bateaux Verts' });
    expect(supplier.headers['octo-capabilities']).toBe('');

    const capabilities = await get('/capabilities');
    expectSpec('Capabilities_get', capabilities.json());

    for (const asked of [undefined, 'octo/pricing']) {
      const products = await get('/products', asked);
      expectSpec('Products_GetProducts', products.json());
      expect(products.json().map((p: { id: string }) => p.id)).toEqual([shop.tour, shop.kayak]);
      const product = await get(`/products/${shop.tour}`, asked);
      expectSpec('Products_GetProduct', product.json());
      expect(product.headers['octo-capabilities']).toBe(asked ?? '');
    }
    const priced = (await get(`/products/${shop.tour}`, 'octo/pricing')).json();
    expect(priced.options[0].units[1].pricingFrom[0]).toMatchObject({
      retail: 1250,
      net: 1094,
      currency: 'EUR',
      currencyPrecision: 2,
    });
  });

  it('answers the calendar and availability of the next 30 days', async () => {
    const range = { localDateStart: today(), localDateEnd: today(30) };
    const calendar = await post('/availability/calendar', {
      productId: shop.tour,
      optionId: 'DEFAULT',
      ...range,
    });
    expect(calendar.statusCode).toBe(200);
    expectSpec('Availabilities_AvailabilityCalendar', calendar.json());
    expect(calendar.json()).toHaveLength(31);

    const availability = await post(
      '/availability',
      { productId: shop.tour, optionId: 'DEFAULT', ...range },
      'octo/pricing',
    );
    expectSpec('Availabilities_AvailabilityCheck', availability.json());
    const future = availability.json().filter((a: { status: string }) => a.status !== 'CLOSED');
    expect(future.length).toBeGreaterThan(50);
    const ids = future.slice(0, 2).map((a: { id: string }) => a.id);
    const byIds = await post('/availability', {
      productId: shop.tour,
      optionId: 'DEFAULT',
      availabilityIds: ids,
    });
    expect(byIds.json().map((a: { id: string }) => a.id)).toEqual(ids);
  });

  it('refuses what OCTo’s validator sends wrong with its codes', async () => {
    expectOctoError(await get('/products/invalidProductId'), 'INVALID_PRODUCT_ID');
    const range = { localDateStart: today(), localDateEnd: today(30) };
    expectOctoError(
      await post('/availability/calendar', { productId: 'nope', optionId: 'DEFAULT', ...range }),
      'INVALID_PRODUCT_ID',
    );
    expectOctoError(
      await post('/availability/calendar', { productId: shop.tour, optionId: 'nope', ...range }),
      'INVALID_OPTION_ID',
    );
    expectOctoError(
      await post('/availability/calendar', {
        productId: shop.tour,
        optionId: 'DEFAULT',
        localDateEnd: today(3),
      }),
      'BAD_REQUEST',
    );
    expectOctoError(
      await post('/availability', {
        productId: shop.tour,
        optionId: 'DEFAULT',
        ...range,
        availabilityIds: ['2030-01-01T09:00:00+01:00'],
      }),
      'BAD_REQUEST',
    );
    expectOctoError(
      await post('/availability', {
        productId: shop.tour,
        optionId: 'DEFAULT',
        availabilityIds: ['2030-01-01T09:30:00+01:00'],
      }),
      'INVALID_AVAILABILITY_ID',
    );
    expectOctoError(await octo(t.app, null, 'GET', '/products'), 'UNAUTHORIZED');
    // Whatever refuses the request, the body is OCTo's: the router, the parser, the schema.
    expectOctoError(await get('/products/%ZZ'), 'BAD_REQUEST');
    expectOctoError(await get('/nowhere'), 'BAD_REQUEST', 404);
    const broken = await t.app.inject({
      method: 'POST',
      url: '/octo/availability',
      headers: {
        authorization: `Bearer ${shop.reseller.apiKey}`,
        'content-type': 'application/json',
      },
      payload: '{"productId":',
    });
    expectOctoError(broken, 'BAD_REQUEST');
    const unknownField = await post('/availability', {
      productId: shop.tour,
      optionId: 'DEFAULT',
      localDate: today(1),
      colour: 'red',
    });
    expect(expectOctoError(unknownField, 'BAD_REQUEST').errorMessage).toContain('colour');
    expectOctoError(await octo(t.app, 'not-a-key', 'GET', '/products'), 'FORBIDDEN');
  });

  it('names a departure of a fall-back night once: by its second 02:30, whole minutes only', async () => {
    // Europe/Paris falls back on 2030-10-27: 02:30 is lived at +02:00, then at +01:00.
    const night = await createExperience(t.app, shop.seller, {
      name: 'Night crossing',
      schedules: daily([230]),
    });
    const ask = (id: string) =>
      post('/availability', { productId: night.id, optionId: 'DEFAULT', availabilityIds: [id] });
    const listed = await post('/availability', {
      productId: night.id,
      optionId: 'DEFAULT',
      localDate: '2030-10-27',
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().map((a: { id: string }) => a.id)).toEqual(['2030-10-27T02:30:00+01:00']);
    expect((await ask('2030-10-27T02:30:00+01:00')).statusCode).toBe(200);
    // Availability and bookings name 02:30 as the second: the first is no departure of it.
    expectOctoError(await ask('2030-10-27T02:30:00+02:00'), 'INVALID_AVAILABILITY_ID');
    expectOctoError(await ask('2030-10-28T02:30:30+01:00'), 'INVALID_AVAILABILITY_ID');
  });
});
