/**
 * `updatedAt` never goes back past an object's own stamps. Another instance whose creation
 * clock ran ahead through a burst (src/db/creation-clock.ts) may have stamped a row seconds
 * ahead of this instance's wall clock; a change made here must show an `updatedAt` after that
 * row's `createdAt` and its previous `updatedAt`.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { createGuide, guideRequest } from '../helpers/guides.js';

let t: TestApp;
let seller: Account;

beforeAll(async () => {
  t = await createTestApp();
  seller = await signUp(t.app, { name: 'Ahead Co', roles: ['ROLE_SELLER'] });
});
afterAll(async () => t.close());

/** What another instance's clock, 10 s ahead of this one's, would have written. */
const AHEAD_MS = 10_000;

async function stampAhead(
  table: 'experiences' | 'guides' | 'users' | 'orders' | 'events',
  id: string,
): Promise<void> {
  await sql`update ${sql.table(table)}
            set created_at = now() + ${`${AHEAD_MS} milliseconds`}::interval,
                updated_at = now() + ${`${AHEAD_MS} milliseconds`}::interval
            where id = ${id}`.execute(t.database.db);
}

/** One seat at the shop's first departure, booked by its seller; throws unless 201. */
async function bookOne(shop: Shop): Promise<{ id: string; items: { event: { id: string } }[] }> {
  const booked = await book(t.app, shop.seller, {
    customerName: 'Pat Ahead',
    items: [item(shop.experienceId)],
  });
  expect(booked.statusCode, booked.body).toBe(201);
  return booked.json();
}

function expectInOrder(view: { createdAt: string; updatedAt: string }): void {
  expect(Date.parse(view.updatedAt)).toBeGreaterThan(Date.parse(view.createdAt));
}

describe('a change to a row stamped ahead of this instance', () => {
  it('keeps an experience updatedAt at or after its createdAt', async () => {
    const created = await as(t.app, seller, {
      method: 'POST',
      url: '/api/experiences',
      payload: {
        name: 'Ahead tour',
        price: 10,
        priceType: 'person',
        currency: 'EUR',
        duration: 60,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id: string = created.json().id;
    await stampAhead('experiences', id);
    const changed = await as(t.app, seller, {
      method: 'PUT',
      url: `/api/experiences/${id}`,
      payload: { price: 12 },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().price).toBe(12);
    expectInOrder(changed.json());
  });

  it('keeps a guide updatedAt at or after its createdAt', async () => {
    const guide = await createGuide(t.app, seller, seller.id);
    await stampAhead('guides', guide.id);
    const changed = await guideRequest(t.app, seller, 'PUT', `/${seller.id}/guides/${guide.id}`, {
      name: 'Gina A.',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expectInOrder(changed.json());
  });

  it('keeps a user updatedAt at or after its createdAt', async () => {
    const user = await signUp(t.app, { name: 'Ahead User' });
    await stampAhead('users', user.id);
    const changed = await as(t.app, user, {
      method: 'PUT',
      url: `/api/users/${user.id}`,
      payload: { name: 'Ahead User 2' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expectInOrder(changed.json());
  });

  it('keeps an order updatedAt at or after its previous one, so a poller of updatedAt[gte] sees the change', async () => {
    const shop = await openShop(t.app);
    const { id } = await bookOne(shop);
    await stampAhead('orders', id);
    const stamped = (
      await as(t.app, shop.seller, { method: 'GET', url: `/api/orders/${id}` })
    ).json();
    const changed = await as(t.app, shop.seller, {
      method: 'PATCH',
      url: `/api/orders/${id}`,
      payload: { customerName: 'Pat Ahead 2' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expectInOrder(changed.json());
    expect(Date.parse(changed.json().updatedAt)).toBeGreaterThan(Date.parse(stamped.updatedAt));
    // What is stored is what was answered.
    const read = (await as(t.app, shop.seller, { method: 'GET', url: `/api/orders/${id}` })).json();
    expect(read.updatedAt).toBe(changed.json().updatedAt);
  });

  it('moves an event updatedAt forward when a booking takes its seats', async () => {
    const shop = await openShop(t.app);
    const eventId = (await bookOne(shop)).items[0]!.event.id;
    await stampAhead('events', eventId);
    expect((await bookOne(shop)).items[0]!.event.id).toBe(eventId);
    const event = await as(t.app, shop.seller, { method: 'GET', url: `/api/events/${eventId}` });
    expect(event.json().quantity.reserved).toBe(2);
    expectInOrder(event.json());
  });
});
