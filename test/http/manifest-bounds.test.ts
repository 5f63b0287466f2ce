/**
 * How big a departure's manifest gets (docs/operations-day.md), through the public API:
 * whatever anonymous guest-checkout bookers write, each order's notes are clipped on it (the
 * order keeps them whole) and one response holds about 2 MB of guests in any format, the
 * counts of all of them exact and `paging.next` (and a Link header) going on, page after
 * page, to every guest once. And guests of a hold past its deadline are not listed, as a
 * scan refuses them, before the sweeper has run.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, expectProblem, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';

let t: TestApp;
let shop: Shop;
let key: string;
const day = '2030-06-01';
// What a hostile booker may write: 20 notes of 2,000 characters, each escaped at its
// costliest (a control character is 6 bytes of JSON, `<` 5 of HTML), every other order
// starting with the one or the other.
const notesOf = (order: number) =>
  Array.from({ length: 20 }, (_, i) => ({
    text:
      ((i + order) % 2 ? '<' : '\u0001').repeat(1000) +
      ((i + order) % 2 ? '\u0001' : '<').repeat(1000),
  }));
const ORDERS = 8;
const SEATS = 50;
const MB = 1024 * 1024;

beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app, { group: { outingMax: 1000 } });
  key = (
    await as(t.app, shop.seller, {
      method: 'POST',
      url: `/api/sellers/${shop.seller.id}/publishable-keys`,
      payload: {},
    })
  ).json().key;
});
afterAll(async () => t.close());

const manifest = (eventId: string, query = '') =>
  as(t.app, shop.seller, { method: 'GET', url: `/api/events/${eventId}/manifest${query}` });

/** Anonymous guest-checkout bookings of 50 seats each, with the notes above. */
async function hostileDeparture(): Promise<{ eventId: string; orderIds: string[] }> {
  const orderIds: string[] = [];
  let eventId = '';
  for (let i = 0; i < ORDERS; i++) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { 'x-publishable-key': key },
      payload: {
        customerName: `Guest ${i}`,
        customerEmail: `g${i}@example.com`,
        phone: '+33 1',
        notes: notesOf(i),
        items: [item(shop.experienceId, day, 900, SEATS)],
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    orderIds.push(response.json().id);
    eventId = response.json().items[0].event.id;
  }
  return { eventId, orderIds };
}

describe('manifest bounds', () => {
  let departure: { eventId: string; orderIds: string[] };
  beforeAll(async () => {
    departure = await hostileDeparture();
  });

  it("clips each order's notes to 1,000 characters on the manifest; the order keeps them", async () => {
    const response = await manifest(departure.eventId);
    expect(response.statusCode).toBe(200);
    const [first] = response.json().guests;
    expect(first.name).toBe('Guest 0');
    expect(first.notes).toEqual([notesOf(0)[0]!.text.slice(0, 1000) + '…']);
    const order = await as(t.app, shop.seller, {
      method: 'GET',
      url: `/api/orders/${first.order.id}`,
    });
    expect(order.json().notes).toEqual(notesOf(0));
  });

  it('answers about 2 MB at most in every format, the counts of all exact', async () => {
    for (const format of ['json', 'csv', 'html']) {
      const response = await manifest(departure.eventId, `?format=${format}`);
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.length).toBeLessThan(2.2 * MB);
      expect(response.headers.link).toMatch(
        new RegExp(
          `^</api/events/${departure.eventId}/manifest\\?startingAfter=[A-Za-z0-9_-]{24,}&format=${format}>; rel="next"$`,
        ),
      );
    }
    const body = (await manifest(departure.eventId)).json();
    expect(body.counts).toEqual({
      booked: ORDERS * SEATS,
      arrived: 0,
      noShow: 0,
      pending: ORDERS * SEATS,
    });
    expect(body.guests.length).toBeGreaterThan(0);
    expect(body.guests.length).toBeLessThan(ORDERS * SEATS);
    const html = (await manifest(departure.eventId, '?format=html')).body;
    expect(html).toMatch(
      /This page lists \d+ of the 400 guests\. <a href="[^"]+">The next page<\/a>/,
    );
  });

  it('pages through every guest once, in manifest order', async () => {
    const seen: { id: string; name: string }[] = [];
    let next: string | null = `/api/events/${departure.eventId}/manifest`;
    let pages = 0;
    while (next) {
      const response = await as(t.app, shop.seller, { method: 'GET', url: next });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.counts.booked).toBe(ORDERS * SEATS);
      seen.push(...body.guests);
      next = body.paging.next;
      pages += 1;
    }
    expect(pages).toBeGreaterThan(1);
    expect(seen).toHaveLength(ORDERS * SEATS);
    expect(new Set(seen.map((g) => g.id)).size).toBe(ORDERS * SEATS);
    const names = seen.map((g) => g.name);
    expect(names).toEqual([...names].sort());
    // The last page says it is the last.
    const last = await manifest(departure.eventId, `?format=html&startingAfter=${seen.at(-2)!.id}`);
    expect(last.headers.link).toBeUndefined();
    expect(last.body).toContain('This page lists 1 of the 400 guests. This is the last page.');
  });

  it('refuses a startingAfter that is no guest', async () => {
    const refused = expectProblem(
      await manifest(departure.eventId, `?startingAfter=${'a'.repeat(24)}`),
      400,
      'validation_failed',
    );
    expect(refused.errors).toEqual([
      { in: 'query', name: 'startingAfter', detail: expect.stringContaining('is not a guest') },
    ]);
    expectProblem(await manifest(departure.eventId, '?startingAfter=x'), 400, 'validation_failed');
  });

  it('lists a small departure whole, with paging.next null', async () => {
    const small = (
      await book(t.app, shop.seller, {
        customerName: 'Small',
        notes: [{ text: 'Vegetarian' }, { text: 'Window' }],
        items: [item(shop.experienceId, '2030-06-02', 900, 2)],
      })
    ).json();
    const response = await manifest(small.items[0].event.id);
    expect(response.headers.link).toBeUndefined();
    const body = response.json();
    expect(body.paging).toEqual({ next: null });
    expect(body.guests.map((g: { notes: string[] }) => g.notes)).toEqual([
      ['Vegetarian', 'Window'],
      ['Vegetarian', 'Window'],
    ]);
    expect((await manifest(small.items[0].event.id, '?format=html')).body).not.toContain(
      'This page lists',
    );
  });
});

describe('paging while bookings change', () => {
  // Three bookings of 200 seats, each with a note of 1,000 characters: about 320 guests a page.
  async function threeBookings(date: string): Promise<{ eventId: string; ids: string[] }> {
    const ids: string[] = [];
    let eventId = '';
    for (const customerName of ['Alice', 'Bob', 'Carol']) {
      const response = await book(t.app, shop.seller, {
        customerName,
        notes: [{ text: '<'.repeat(1000) }],
        items: [item(shop.experienceId, date, 900, 200)],
      });
      expect(response.statusCode, response.body).toBe(201);
      eventId = response.json().items[0].event.id;
      ids.push(...response.json().items[0].guests.map((g: { id: string }) => g.id));
    }
    return { eventId, ids };
  }
  const pageAt = async (url: string) => {
    const response = await as(t.app, shop.seller, { method: 'GET', url });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  it('lists every guest when the order ending a page is renamed before the next', async () => {
    const { eventId, ids } = await threeBookings('2030-06-04');
    const first = await pageAt(`/api/events/${eventId}/manifest`);
    expect(first.guests.length).toBeLessThan(600);
    const last = first.guests.at(-1);
    expect(last.name).toBe('Bob');
    // Bob's booking renamed between the two pages (the customer or staff may): before, the
    // next page went on after "Zoe" and Carol's 200 guests were never listed.
    const renamed = await as(t.app, shop.seller, {
      method: 'PATCH',
      url: `/api/orders/${last.order.id}`,
      payload: { customerName: 'Zoe' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const seen = new Set<string>(first.guests.map((g: { id: string }) => g.id));
    let next: string | null = first.paging.next;
    while (next) {
      const page = await pageAt(next);
      for (const guest of page.guests) seen.add(guest.id);
      next = page.paging.next;
    }
    expect([...seen].sort()).toEqual([...ids].sort());
  });

  it('goes on when the guest ending a page moved to another departure', async () => {
    const { eventId, ids } = await threeBookings('2030-06-05');
    const first = await pageAt(`/api/events/${eventId}/manifest`);
    const last = first.guests.at(-1);
    const order = (
      await as(t.app, shop.seller, { method: 'GET', url: `/api/orders/${last.order.id}` })
    ).json();
    const moved = await as(t.app, shop.seller, {
      method: 'PATCH',
      url: `/api/orders/${order.id}`,
      payload: { items: [{ id: order.items[0].id, arrival: '2030-06-06' }] },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const rest = await pageAt(first.paging.next);
    const movedIds = new Set(order.items[0].guests.map((g: { id: string }) => g.id));
    const listed = new Set([...first.guests, ...rest.guests].map((g: { id: string }) => g.id));
    expect(ids.filter((id) => !movedIds.has(id) && !listed.has(id))).toEqual([]);
  });

  it("refuses a cursor that is not one of this manifest's, 400 invalid_parameter", async () => {
    const { eventId } = await threeBookings('2030-06-07');
    const first = await pageAt(`/api/events/${eventId}/manifest`);
    const token = new URL(first.paging.next, 'http://x').searchParams.get('startingAfter')!;
    // The token is sealed (manifest-cursor-seal.test.ts). The place it holds, from the page
    // and the database, makes the unsealed tokens of the version before, read in this release.
    const { id, name, order } = first.guests.at(-1);
    const [event, orderId] = [eventId, order.id];
    const { rows } = await sql<{ itemPosition: number; position: number }>`
      select i.position as "itemPosition", g.position
        from order_guests g join order_items i on i.id = g.item_id
       where g.id = ${id}`.execute(t.database.db);
    const { itemPosition, position } = rows[0]!;
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const tampered = [
      encode([event, name, orderId, 2 ** 31, position, id]),
      encode([event, name, orderId, itemPosition, -1, id]),
      encode([event, name, orderId, itemPosition, 1.5, id]),
      encode([event, name, orderId, itemPosition, '1', id]),
      encode([event, 'Bob\u0000', orderId, itemPosition, position, id]),
      encode([event, '\ud800', orderId, itemPosition, position, id]),
      encode([event, name, 'x'.repeat(24), itemPosition, position, id]),
      encode([event, name, orderId, itemPosition, position]),
      encode({ event, name, orderId, itemPosition, position, id }),
      Buffer.from('["' + 'a'.repeat(30)).toString('base64url'),
      Buffer.from([0xff, 0xfe, 0xfd, 0x22, 0x5b]).toString('base64url').repeat(8),
      `${token}A`,
      token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'),
      'A'.repeat(40),
    ];
    for (const cursor of tampered) {
      const response = await manifest(eventId, `?startingAfter=${cursor}`);
      const refused = expectProblem(response, 400, 'invalid_parameter');
      expect(refused.errors).toEqual([
        { in: 'query', name: 'startingAfter', detail: expect.any(String) },
      ]);
    }
    // This departure's cursor, on another one.
    const other = (
      await book(t.app, shop.seller, {
        customerName: 'Other',
        items: [item(shop.experienceId, '2030-06-08', 900, 1)],
      })
    ).json().items[0].event.id;
    expectProblem(await manifest(other, `?startingAfter=${token}`), 400, 'invalid_parameter');
    // A made-up place in the unsealed form lists this departure's guests only.
    const forged = encode([other, '', orderId, 0, 0, id]);
    expect((await pageAt(`/api/events/${other}/manifest?startingAfter=${forged}`)).guests).toEqual([
      expect.objectContaining({ name: 'Other' }),
    ]);
  });
});

describe('held seats on the manifest', () => {
  it('leaves out the guests of a hold past its deadline, before the sweeper runs', async () => {
    const confirmed = (
      await book(t.app, shop.seller, {
        customerName: 'Confirmed',
        items: [item(shop.experienceId, '2030-06-03', 900, 1)],
      })
    ).json();
    const held = (
      await book(t.app, shop.seller, {
        customerName: 'Held',
        items: [{ ...item(shop.experienceId, '2030-06-03', 900, 2), status: 103 }],
      })
    ).json();
    const eventId = confirmed.items[0].event.id;
    const names = async () => {
      const body = (await manifest(eventId)).json();
      return { names: body.guests.map((g: { name: string }) => g.name), counts: body.counts };
    };
    expect((await names()).names).toEqual(['Confirmed', 'Held', 'Held']);
    // The sweeper is off here: the deadline passes, the seats not yet given back.
    await sql`update orders set hold_expires_at = now() - interval '1 second' where id = ${held.id}`.execute(
      t.database.db,
    );
    expect(await names()).toEqual({
      names: ['Confirmed'],
      counts: { booked: 1, arrived: 0, noShow: 0, pending: 1 },
    });
  });
});
