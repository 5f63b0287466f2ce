/**
 * `expand=` over HTTP: references replaced by the objects they name on single GETs and
 * list pages, only with what the caller may read (a customer never gets an event, a guide
 * delegate never gets guide profiles, the public never gets a seller's email), in the
 * caller's API version, and a 400 naming the allowed ones for anything else.
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
import { assign, createGuide, delegate, type Guide } from '../helpers/guides.js';

let t: TestApp;
let shop: Shop;
let customer: Account;
let guide: Guide;
let guideUser: Account;
let orderId: string;
let eventId: string;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
  customer = await signUp(t.app);
  guideUser = await delegate(t.app, shop.seller, ['ROLE_GUIDE'], 'Gus');
  guide = await createGuide(t.app, shop.seller, shop.seller.id, {
    name: 'Gus',
    user: { id: guideUser.id },
  });
  const booked = await book(t.app, customer, {
    items: [item(shop.experienceId, '2031-08-01', 900, 2)],
  });
  orderId = booked.json().id;
  eventId = booked.json().items[0].event.id;
  await assign(t.app, shop.seller, eventId, { guide: { id: guide.id } });
});
afterAll(async () => t.close());

const get = (account: Account | null, url: string, headers: Record<string, string> = {}) =>
  as(t.app, account, { method: 'GET', url, headers });

describe('expand on single GETs', () => {
  it('gives the seller’s staff the order’s experience, event and seller', async () => {
    const order = (
      await get(shop.seller, `/api/orders/${orderId}?expand=experience,event,seller`)
    ).json();
    expect(order.seller).toMatchObject({
      object: 'seller',
      id: shop.seller.id,
      email: shop.seller.email,
    });
    expect(order.items[0].experience).toMatchObject({
      object: 'experience',
      id: shop.experienceId,
      name: 'Harbour Kayak',
    });
    expect(order.items[0].event).toMatchObject({
      object: 'event',
      id: eventId,
      quantity: { reserved: 2 },
    });
  });

  it('gives the customer only what it may read: no event, no seller email', async () => {
    const order = (
      await get(customer, `/api/orders/${orderId}?expand=experience,event,seller`)
    ).json();
    expect(order.items[0].experience).toMatchObject({ object: 'experience' });
    expect(order.items[0].event).toEqual({ id: eventId });
    expect(order.seller).toEqual({
      object: 'seller',
      id: shop.seller.id,
      name: expect.any(String),
      roles: [],
    });
  });

  it('expands an event’s guides for guide managers only (profiles hold contact details)', async () => {
    const asSeller = (await get(shop.seller, `/api/events/${eventId}?expand=guides`)).json();
    expect(asSeller.guides).toEqual([
      {
        status: 'pending',
        guide: expect.objectContaining({ object: 'guide', id: guide.id, name: 'Gus' }),
      },
    ]);
    const asGuide = await get(guideUser, `/api/events/${eventId}?expand=guides,experience`);
    expect(asGuide.statusCode).toBe(200);
    expect(asGuide.json().guides).toEqual([{ status: 'pending', guide: { id: guide.id } }]);
    expect(asGuide.json().experience).toMatchObject({ object: 'experience' });
  });

  it('expands objects brought in in the caller’s version', async () => {
    const old = await get(shop.seller, `/api/orders/${orderId}?expand=event`, {
      'x-api-version': '2018-06-25',
    });
    expect(old.json().items[0].event).toMatchObject({ object: 'event', guides: [guide.id] });
  });
});

describe('expand on lists', () => {
  it('expands every row of a page', async () => {
    const page = (
      await get(null, `/api/experiences?seller=${shop.seller.id}&expand=seller`)
    ).json();
    expect(page.data.length).toBeGreaterThan(0);
    for (const experience of page.data) {
      expect(experience.seller).toEqual({
        object: 'seller',
        id: shop.seller.id,
        name: expect.any(String),
        roles: [],
      });
    }
    const events = (await get(shop.seller, `/api/events?expand=experience,guides`)).json();
    expect(events.data[0]).toMatchObject({
      experience: { object: 'experience', id: shop.experienceId },
      guides: [{ guide: { object: 'guide', id: guide.id } }],
    });
    const orders = (await get(customer, `/api/orders?expand=experience`)).json();
    expect(orders.data[0].items[0].experience).toMatchObject({ object: 'experience' });
    const guides = (
      await get(shop.seller, `/api/sellers/${shop.seller.id}/guides?expand=seller`)
    ).json();
    expect(guides.data[0].seller).toMatchObject({ object: 'seller', id: shop.seller.id });
  });

  it('refuses unknown expansions, and those the resource does not offer, with a 400', async () => {
    const cases: [Account | null, string, string, string][] = [
      [null, '/api/experiences?expand=guides', 'invalid_parameter', 'expandable: seller'],
      [
        null,
        `/api/experiences/${shop.experienceId}?expand=everything`,
        'invalid_parameter',
        'expandable: seller',
      ],
      [
        shop.seller,
        `/api/orders?expand=guides`,
        'invalid_parameter',
        'expandable: experience, event, seller',
      ],
      [
        shop.seller,
        `/api/events/${eventId}?expand=order`,
        'invalid_parameter',
        'expandable: experience, seller, guides',
      ],
      [shop.seller, '/api/sellers?expand=seller', 'invalid_parameter', 'expands nothing'],
      [shop.seller, `/api/orders?expand=seller&expand=event`, 'repeated_parameter', 'once'],
    ];
    for (const [account, url, code, detail] of cases) {
      const problem = expectProblem(await get(account, url), 400, code);
      expect(problem.errors?.[0], url).toMatchObject({ in: 'query', name: 'expand' });
      expect(problem.errors?.[0]?.detail, url).toContain(detail);
    }
  });
});

describe('expand naming a relation the object already embeds', () => {
  it('is accepted and changes nothing (an integration’s schedule picker sends it)', async () => {
    const plain = (await get(shop.seller, `/api/experiences/${shop.experienceId}`)).json();
    const cases: [Account | null, string, string][] = [
      [shop.seller, `/api/experiences/${shop.experienceId}`, 'schedules'],
      [null, `/api/experiences/${shop.experienceId}`, 'schedules,demographics'],
      [shop.seller, `/api/sellers/${shop.seller.id}/guides/${guide.id}`, 'user,schedules'],
      [shop.seller, `/api/orders/${orderId}`, 'items'],
    ];
    for (const [account, url, expand] of cases) {
      const without = await get(account, url);
      const res = await get(account, `${url}?expand=${expand}`);
      expect(res.statusCode, url).toBe(200);
      expect(res.json(), url).toEqual(without.json());
    }
    expect(plain.schedules.length).toBeGreaterThan(0);
  });

  it('combines with real expansions, on lists too', async () => {
    const page = (await get(shop.seller, '/api/experiences?expand=schedules,seller')).json();
    expect(page.data[0].seller).toMatchObject({ object: 'seller', id: shop.seller.id });
    expect(page.data[0].schedules.length).toBeGreaterThan(0);
  });

  it('still refuses a name that is neither embedded nor expandable', async () => {
    const res = await get(null, `/api/experiences/${shop.experienceId}?expand=schedules,bogus`);
    expect(expectProblem(res, 400, 'invalid_parameter').detail).toContain('"bogus"');
  });
});
