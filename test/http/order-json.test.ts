/**
 * The Order view PostgreSQL builds (src/modules/orders/order-json.ts), sent as text to
 * reads of the latest version, against the view the service maps in Node (`toOrderView`,
 * what writes and older versions answer): the same JSON value for orders of every shape
 * (guest types, plain seats, several items, a dropped item, checked-in guests, notes, an
 * adjustment, a hold, zones east and west of UTC on both sides of their clock changes), and
 * for any zone and departure time (fast-check). Neither rendering leaks a key the schema
 * does not declare.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ordersRepository } from '../../src/modules/orders/orders.repository.js';
import { Value } from 'typebox/value';
import { Order, itemFromJson, toOrderView } from '../../src/modules/orders/orders.schemas.js';
import { localIso } from '../../src/modules/shared/views.js';
import {
  as,
  createTestApp,
  expectProblem,
  signUp,
  type Account,
  type TestApp,
} from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';

let t: TestApp;
let shops: Record<string, Shop>;
let customer: Account;
let adult: string;
let child: string;

const ZONES = [
  'Europe/Paris',
  'America/St_Johns',
  'Asia/Kathmandu',
  'UTC',
  'Pacific/Chatham',
  'America/Los_Angeles',
];

beforeAll(async () => {
  t = await createTestApp();
  shops = {};
  for (const timezone of ZONES) {
    shops[timezone] = await openShop(t.app, {
      timezone,
      group: { outingMax: 50 },
      schedules: [
        { type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: [130, 900] },
      ],
      demographics: [
        { label: 'Adult', code: 'adult' },
        { label: 'Child', code: 'child', price: 10 },
      ],
    });
  }
  const paris = shops['Europe/Paris']!;
  const experience = (
    await as(t.app, paris.seller, { method: 'GET', url: `/api/experiences/${paris.experienceId}` })
  ).json();
  [adult, child] = experience.demographics.map((d: { id: string }) => d.id);
  customer = await signUp(t.app);
});
afterAll(async () => t.close());

/** The view mapped in Node from the same rows, as the serializer sends it (declared keys). */
async function nodeView(id: string): Promise<unknown> {
  const row = (await ordersRepository(t.database.db).findWithItems(id))!;
  const view = toOrderView(row, row.items.map(itemFromJson), row.guests);
  return Value.Clean(Order, JSON.parse(JSON.stringify(view)));
}

/** GET as the seller: the text PostgreSQL built. */
async function textView(shop: Shop, id: string) {
  const response = await as(t.app, shop.seller, { method: 'GET', url: `/api/orders/${id}` });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.headers.etag).toMatch(/^"[\w-]+"$/);
  return response.json();
}

async function booked(shop: Shop, payload: Record<string, unknown>) {
  const response = await book(t.app, shop.seller, { customerName: 'Pat Guest', ...payload });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

describe('the order view PostgreSQL builds', () => {
  it('is the JSON value the service maps, for orders of every shape and zone', async () => {
    const ids: [Shop, string][] = [];
    for (const timezone of ZONES) {
      const shop = shops[timezone]!;
      // Both sides of each zone's clock change, and 01:30 of the night Los Angeles falls back.
      for (const arrival of ['2030-01-15', '2030-07-15', '2030-11-03']) {
        const second =
          timezone === 'Europe/Paris'
            ? {
                experience: { id: shop.experienceId },
                arrival,
                arrivalTime: 900,
                demographics: [
                  { demographic: { id: adult }, quantity: 2 },
                  { demographic: { id: child }, quantity: 1 },
                ],
              }
            : item(shop.experienceId, arrival, 900);
        const order = await booked(shop, {
          items: [item(shop.experienceId, arrival, 130, 2), second],
          notes: [{ text: `Bring "sun" cream; it's ${timezone}` }],
          payment: { method: 'later' },
          customerEmail: null,
        });
        ids.push([shop, order.id]);
      }
    }
    // A customer's own booking, resized (an adjustment) and with an item dropped.
    const paris = shops['Europe/Paris']!;
    const own = await book(t.app, customer, {
      items: [item(paris.experienceId, '2030-03-30', 900, 3), item(paris.experienceId)],
    });
    expect(own.statusCode).toBe(201);
    const [first] = own.json().items;
    const changed = await as(t.app, paris.seller, {
      method: 'PATCH',
      url: `/api/orders/${own.json().id}`,
      payload: { items: [{ id: first.id, quantity: 2 }] },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().adjustments).toHaveLength(1);
    ids.push([paris, own.json().id]);
    // A hold, and a guest checked in.
    const held = await booked(paris, { items: [{ ...item(paris.experienceId), status: 103 }] });
    ids.push([paris, held.id]);
    const scanned = await as(t.app, paris.seller, {
      method: 'POST',
      url: '/api/checkins',
      payload: { code: changed.json().items[0].guests[0].ticketCode, force: true },
    });
    expect(scanned.statusCode, scanned.body).toBe(201);

    for (const [shop, id] of ids) {
      const text = await textView(shop, id);
      expect(text).toEqual(await nodeView(id));
    }
    const checkedIn = await textView(paris, own.json().id);
    expect(checkedIn.items[0].guestStatus).toBe('pending');
    expect(checkedIn.items[0].guests.map((g: { guestStatus: string }) => g.guestStatus)).toEqual([
      'arrived',
      'pending',
    ]);
    expect(checkedIn.items).toHaveLength(2);
    expect(checkedIn.items[1].status).toBe(700);
    expect((await textView(paris, held.id)).holdExpiresAt).toEqual(expect.any(String));
  });

  it('shows only what the schema declares of the jsonb it reads', async () => {
    const paris = shops['Europe/Paris']!;
    const order = await booked(paris, {
      items: [
        {
          ...item(paris.experienceId),
          quantity: undefined,
          demographics: [{ demographic: { id: adult }, quantity: 1 }],
        },
      ],
      notes: [{ text: 'kept' }],
    });
    await sql`update orders set notes = '[{"text": "kept", "internal": "hidden"}]'::jsonb,
      adjustments = '[{"amount": 1, "reason": "r", "createdAt": "x", "by": "hidden"}]'::jsonb
      where id = ${order.id}`.execute(t.database.db);
    await sql`update order_items set demographics = jsonb_set(demographics, '{0,internal}', '"hidden"')
      where order_id = ${order.id}`.execute(t.database.db);
    const response = await as(t.app, paris.seller, {
      method: 'GET',
      url: `/api/orders/${order.id}`,
    });
    expect(response.body).not.toContain('hidden');
    expect(response.json()).toEqual(await nodeView(order.id));
  });

  it("writes any departure's local time and offset as Luxon does, in any zone", async () => {
    const shop = shops.UTC!;
    const order = await booked(shop, { items: [item(shop.experienceId)] });
    const zones = Intl.supportedValuesOf('timeZone');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...zones, 'UTC'),
        // Whole minutes from 1972 to 2070, as departures start. Before 1972-01-07 one zone
        // (Africa/Monrovia, -00:44:30) had an offset with seconds, which the SQL twin cannot
        // know without a time-zone database (src/modules/orders/order-json.ts); a seed that
        // drew it there failed this property at random.
        fc
          .integer({ min: Date.UTC(1972, 0, 8) / 60_000, max: 52_000_000 })
          .map((m) => new Date(m * 60_000)),
        async (zone, start) => {
          const local = DateTime.fromJSDate(start, { zone });
          await sql`update order_items set timezone = ${zone}, arrival_datetime = ${start},
            arrival = ${local.toISODate()}, arrival_time = ${local.hour * 100 + local.minute}
            where order_id = ${order.id}`.execute(t.database.db);
          const body = await textView(shop, order.id);
          expect(body.items[0].arrivalDatetime).toBe(localIso(start, zone));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('lists pages of the same views, counted, searched, and empty', async () => {
    const paris = shops['Europe/Paris']!;
    const list = (query: string) =>
      as(t.app, paris.seller, { method: 'GET', url: `/api/orders?${query}` });
    const first = await list('limit=3&count=true');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    const page = first.json();
    expect(page.data).toHaveLength(3);
    for (const order of page.data) expect(order).toEqual(await nodeView(order.id));
    expect(page.paging.total).toBeGreaterThan(3);
    expect(Object.keys(page)).toEqual(['data', 'paging']);
    const second = (await as(t.app, paris.seller, { method: 'GET', url: page.paging.next })).json();
    expect(second.data.map((o: { id: string }) => o.id)).not.toContain(page.data[0].id);

    const wanted = page.data[1];
    const found = (await list(`search=${wanted.shortCode}`)).json();
    expect(found.data[0]).toEqual(wanted);

    const none = await list('customerName=nobody-at-all');
    expect(none.body).toBe('{"data":[],"paging":{"next":null}}');
  });

  it('walks every page whole at any size: the look-ahead row is never shown', async () => {
    // The row after a page is fetched without its view (db/list-source.ts, viewedPage).
    const paris = shops['Europe/Paris']!;
    const get = async (url: string) => {
      const response = await as(t.app, paris.seller, { method: 'GET', url });
      expect(response.statusCode).toBe(200);
      return response.json();
    };
    const { total } = (await get('/api/orders?limit=1&count=true')).paging;
    expect(total).toBeGreaterThan(4);
    for (const limit of [1, 2, total - 1, total, 25]) {
      const seen: string[] = [];
      let url: string | null = `/api/orders?limit=${limit}`;
      while (url) {
        const page = await get(url);
        expect(page.data.length).toBeLessThanOrEqual(limit);
        // The page's last order, the one next to the look-ahead row, in full.
        if (page.data.length > 0)
          expect(page.data.at(-1)).toEqual(await nodeView(page.data.at(-1).id));
        seen.push(...page.data.map((o: { id: string }) => o.id));
        url = page.paging.next;
      }
      expect(seen).toHaveLength(total);
      expect(new Set(seen).size).toBe(total);
    }
  });

  it('sends a page of text beyond ASCII whole: its length counted in bytes, its tag theirs', async () => {
    const paris = shops['Europe/Paris']!;
    const name = 'Zoë Ångström 東京 🚤';
    const order = await booked(paris, { customerName: name, items: [item(paris.experienceId)] });
    const url = `/api/orders?customerName=${encodeURIComponent(name)}`;
    const response = await as(t.app, paris.seller, { method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    const page = response.json();
    expect(page.data.map((o: { id: string }) => o.id)).toEqual([order.id]);
    expect(page.data[0].customerName).toBe(name);
    expect(page.data[0]).toEqual(await nodeView(order.id));
    const again = await as(t.app, paris.seller, {
      method: 'GET',
      url,
      headers: { 'if-none-match': String(response.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('keeps each listed order with its own id, whatever control characters its text holds', async () => {
    // A page travels from PostgreSQL as one row, its texts joined by U+0001 (db/list-source.ts).
    const paris = shops['Europe/Paris']!;
    const names = ['Sep\u0001arator', 'Two\u0002\u0001\tmarks', '\u0001'];
    const made = [];
    for (const customerName of names)
      made.push(await booked(paris, { customerName, items: [item(paris.experienceId)] }));
    const response = await as(t.app, paris.seller, { method: 'GET', url: '/api/orders?limit=50' });
    expect(response.statusCode).toBe(200);
    const page = response.json();
    for (const order of page.data) expect(order).toEqual(await nodeView(order.id));
    const listed = new Map(page.data.map((o: { id: string }) => [o.id, o]));
    for (const [i, order] of made.entries())
      expect(listed.get(order.id)).toMatchObject({ id: order.id, customerName: names[i] });
  });

  it('answers 404 alike for an order the caller may not see and one that does not exist', async () => {
    const paris = shops['Europe/Paris']!;
    const order = await booked(paris, { items: [item(paris.experienceId)] });
    const stranger = await signUp(t.app);
    for (const id of [order.id, randomBytes(12).toString('hex')]) {
      const response = await as(t.app, stranger, { method: 'GET', url: `/api/orders/${id}` });
      expectProblem(response, 404, 'not_found');
    }
  });
});
