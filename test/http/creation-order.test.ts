/**
 * Creation order (DESIGN.md section 12, docs/query-language.md "Creation order"): orders made
 * back to back, most of them in the same second as others, list newest first exactly as
 * they were made, `paging.next` visits each once, `sort=id` is creation order, a made-up
 * `id[lt]` cuts at the second it holds, and an order's items come back as they were booked,
 * a change's new items after them. Ids hold only their second before 64 random bits, so
 * before this none of it held within a second.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { newId } from '../../src/db/ids.js';
import { insertOrder } from '../helpers/factories.js';

let t: TestApp;
let shop: Shop;
/** Ids of the orders booked, in the order they were booked. */
const booked: string[] = [];
const COUNT = 40;

beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app, { group: { outingMax: 1000 } });
  const customer = await signUp(t.app);
  for (let n = 0; n < COUNT; n++) {
    const response = await book(t.app, customer, {
      customerName: `Guest ${n}`,
      items: [item(shop.experienceId, '2030-06-01', 900, 1)],
    });
    expect(response.statusCode).toBe(201);
    booked.push(response.json().id);
  }
}, 120_000);
afterAll(async () => t.close());

interface Page {
  data: { id: string; createdAt: string; items: { arrival: string }[] }[];
  paging: { next: string | null };
}

async function list(account: Account, url: string): Promise<Page> {
  const response = await as(t.app, account, { method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Page>();
}

/** An event of the shop's experience, for orders inserted directly. */
async function anyEvent(): Promise<string> {
  const event = await t.database.db
    .selectFrom('events')
    .select('id')
    .where('experience_id', '=', shop.experienceId)
    .executeTakeFirstOrThrow();
  return event.id;
}

/** Every id, following `paging.next` from `url`. */
async function walk(account: Account, url: string): Promise<string[]> {
  const ids: string[] = [];
  for (let next: string | null = url; next !== null;) {
    const page = await list(account, next);
    ids.push(...page.data.map((o) => o.id));
    next = page.paging.next;
  }
  return ids;
}

describe('the default order', () => {
  it('lists orders newest first exactly as they were booked, within a second too', async () => {
    // Not vacuous: several orders share a creation second (their ids' first 4 bytes).
    const seconds = new Set(booked.map((id) => id.slice(0, 8)));
    expect(seconds.size).toBeLessThan(COUNT);
    const page = await list(shop.seller, `/api/orders?limit=100`);
    expect(page.data.map((o) => o.id)).toEqual([...booked].reverse());
  });

  it('pages by paging.next visiting every order once, in creation order', async () => {
    const ids = await walk(shop.seller, `/api/orders?limit=3`);
    expect(ids).toEqual([...booked].reverse());
    const page = await list(shop.seller, `/api/orders?limit=3`);
    expect(page.paging.next).toContain(`id[lt]=${booked[COUNT - 3]}`);
  });

  it('sorts sort=id in creation order and sort=-id as the default', async () => {
    expect(await walk(shop.seller, `/api/orders?sort=id&limit=7`)).toEqual(booked);
    expect(await walk(shop.seller, `/api/orders?sort=-id&limit=7`)).toEqual([...booked].reverse());
    expect(await walk(shop.seller, `/api/orders?sort=createdAt&limit=100`)).toEqual(booked);
  });

  it('reads an id in a comparison as "made before/after that order"', async () => {
    const k = 17;
    const before = await walk(shop.seller, `/api/orders?id[lt]=${booked[k]}&limit=100`);
    expect(before).toEqual(booked.slice(0, k).reverse());
    const from = await walk(shop.seller, `/api/orders?id[gte]=${booked[k]}&sort=id&limit=100`);
    expect(from).toEqual(booked.slice(k));
    const between = await walk(
      shop.seller,
      `/api/orders?id[range]=${booked[3]},${booked[9]}&sort=id&limit=100`,
    );
    expect(between).toEqual(booked.slice(3, 10));
  });

  it('cuts a made-up id[lt] at the second it holds', async () => {
    const seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
    const second = Math.floor(Date.parse('2031-03-01T12:00:00Z') / 1000);
    const hex = (s: number, rest: string) => s.toString(16).padStart(8, '0') + rest.repeat(16);
    const made: string[] = [];
    for (const ms of [-500, 0, 400, 1100]) {
      const at = second * 1000 + ms;
      made.push(
        await insertOrder(t.database.db, {
          id: newId(at),
          sellerId: seller.id,
          createdAt: new Date(at),
          items: [
            { experienceId: shop.experienceId, eventId: await anyEvent(), arrival: '2031-03-02' },
          ],
        }),
      );
    }
    const newestFirst = [...made].reverse();
    // Made before that second; one made at its very first millisecond is not before it.
    expect(await walk(seller, `/api/orders?id[lt]=${hex(second, '0')}&limit=1`)).toEqual([made[0]]);
    expect(await walk(seller, `/api/orders?id[lt]=${hex(second + 1, '0')}&limit=1`)).toEqual(
      newestFirst.slice(1),
    );
    expect(await walk(seller, `/api/orders?id[gte]=${hex(second, '0')}&sort=id&limit=2`)).toEqual(
      made.slice(1),
    );
    expect(await walk(seller, `/api/orders?id[lt]=${hex(second + 3600, 'f')}&limit=2`)).toEqual(
      newestFirst,
    );
    expect((await list(seller, `/api/orders?id[lt]=${hex(second - 3600, 'f')}`)).data).toEqual([]);
  });

  it('breaks ties of one millisecond (two instances) by id, the same way on every page', async () => {
    const seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
    const experienceId = shop.experienceId;
    const eventId = await anyEvent();
    const at = new Date('2030-01-01T00:00:00.123Z');
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) {
      ids.push(
        await insertOrder(t.database.db, {
          sellerId: seller.id,
          createdAt: at,
          items: [{ experienceId, eventId, arrival: '2030-06-01' }],
        }),
      );
    }
    const newestFirst = [...ids].sort().reverse();
    expect(await walk(seller, `/api/orders?limit=1`)).toEqual(newestFirst);
    expect(await walk(seller, `/api/orders?sort=id&limit=2`)).toEqual([...newestFirst].reverse());
  });
});

describe("an order's items", () => {
  const days = ['2030-07-05', '2030-07-02', '2030-07-09', '2030-07-01', '2030-07-07', '2030-07-03'];

  it('come back in the order they were booked, and a change adds its items after them', async () => {
    const customer = await signUp(t.app);
    const response = await book(t.app, customer, {
      items: days.map((day) => item(shop.experienceId, day, 900, 1)),
    });
    expect(response.statusCode).toBe(201);
    const order = response.json<{ id: string; items: { id: string; arrival: string }[] }>();
    expect(order.items.map((i) => i.arrival)).toEqual(days);

    const read = async () =>
      (await as(t.app, customer, { method: 'GET', url: `/api/orders/${order.id}` })).json<{
        items: { id: string; arrival: string }[];
      }>().items;
    expect((await read()).map((i) => i.arrival)).toEqual(days);
    const listed = await list(customer, `/api/orders?id=${order.id}`);
    expect(listed.data[0]!.items.map((i) => i.arrival)).toEqual(days);

    // Kept items listed in another order, one of them moved; the new one goes last.
    const kept = [...order.items].reverse().map((i) => ({
      ...item(shop.experienceId, i.arrival, 900, 1),
      id: i.id,
    }));
    kept[2] = { ...kept[2]!, arrivalTime: 1400 };
    const changed = await as(t.app, customer, {
      method: 'PATCH',
      url: `/api/orders/${order.id}`,
      payload: { items: [...kept, item(shop.experienceId, '2030-07-04', 900, 1)] },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const after = [...days, '2030-07-04'];
    expect(changed.json<{ items: { arrival: string }[] }>().items.map((i) => i.arrival)).toEqual(
      after,
    );
    const items = await read();
    expect(items.map((i) => i.arrival)).toEqual(after);
    expect(items.slice(0, days.length).map((i) => i.id)).toEqual(order.items.map((i) => i.id));
  });
});
