/**
 * The manifest's paging cursor is sealed (src/modules/checkins/cursor-seal.ts), through the
 * public API: `paging.next` and the `Link` header go on page after page to every guest once,
 * the token holds no trace of the customer's name (it travels in URLs: proxies' access logs,
 * browser history, the HTML page's link), and a token altered, made up or of another
 * departure is `400 invalid_parameter`. The deployed version's unsealed tokens and guests'
 * ids are still read, for the clients in the middle of a manifest during the rollout.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, expectProblem, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';

let t: TestApp;
let shop: Shop;
// Names easy to find, in the page-ending places: 4 bookings of 200 seats, each with a note
// of 1,000 characters, make about 320 guests a page, 3 pages.
const NAMES = ['Amélie Ørsted-Quist', 'Bartholomew Kowalczyk', 'Célestine Wojtyła', 'Dorothea Zyx'];
const SEATS = 200;
let departure: { eventId: string; ids: string[] };

beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app, { group: { outingMax: 1000 } });
  departure = await bookings('2030-07-01');
});
afterAll(async () => t.close());

async function bookings(date: string, names = NAMES): Promise<{ eventId: string; ids: string[] }> {
  const ids: string[] = [];
  let eventId = '';
  for (const customerName of names) {
    const response = await book(t.app, shop.seller, {
      customerName,
      notes: [{ text: '<'.repeat(1000) }],
      items: [item(shop.experienceId, date, 900, SEATS)],
    });
    expect(response.statusCode, response.body).toBe(201);
    eventId = response.json().items[0].event.id;
    ids.push(...response.json().items[0].guests.map((g: { id: string }) => g.id));
  }
  return { eventId, ids };
}

const get = (url: string) => as(t.app, shop.seller, { method: 'GET', url });
const manifestUrl = (eventId: string, cursor?: string) =>
  `/api/events/${eventId}/manifest${cursor === undefined ? '' : `?startingAfter=${cursor}`}`;
const tokenOf = (next: string): string =>
  new URL(next, 'http://x').searchParams.get('startingAfter')!;

/** The first page's next token, and the name of the guest that ends the page. */
async function firstToken(eventId: string): Promise<{ token: string; lastName: string }> {
  const response = await get(manifestUrl(eventId));
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  return { token: tokenOf(body.paging.next), lastName: body.guests.at(-1).name };
}

/** Every place a name could show in a token's text or in its bytes read either way. */
function leaks(token: string, name: string): string[] {
  const found: string[] = [];
  const utf8 = Buffer.from(name, 'utf8');
  if (token.includes(name)) found.push('the text');
  // Each of the 3 alignments of the name's base64 within a longer run, both alphabets.
  for (let shift = 0; shift < 3; shift++) {
    const run = Buffer.concat([Buffer.alloc(shift), utf8]);
    // Leave out the characters that depend on the bytes before and after the name.
    const inner = (text: string) => text.slice(Math.ceil((shift * 4) / 3) + 1, -4);
    for (const alphabet of ['base64', 'base64url'] as const)
      if (token.includes(inner(run.toString(alphabet)))) found.push(`${alphabet} at ${shift}`);
  }
  for (const alphabet of ['base64', 'base64url'] as const) {
    const bytes = Buffer.from(token, alphabet);
    if (bytes.includes(utf8)) found.push(`its bytes as ${alphabet}`);
    if (bytes.toString('latin1').includes(name)) found.push(`its bytes as ${alphabet}, latin1`);
  }
  return found;
}

describe('the sealed manifest cursor', () => {
  it('pages a manifest of many guests to its end, every guest once, in order', async () => {
    const seen: { id: string; name: string }[] = [];
    let next: string | null = manifestUrl(departure.eventId);
    let pages = 0;
    while (next) {
      const response = await get(next);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      seen.push(...body.guests);
      next = body.paging.next;
      if (next) {
        expect(response.headers.link).toBe(`<${next}>; rel="next"`);
        expect(leaks(tokenOf(next), body.guests.at(-1).name)).toEqual([]);
      } else expect(response.headers.link).toBeUndefined();
      pages += 1;
    }
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(seen.map((g) => g.id).sort()).toEqual([...departure.ids].sort());
    const names = seen.map((g) => g.name);
    expect(names).toEqual([...names].sort());
  });

  it("holds no trace of the customer's name, whichever way it is read", async () => {
    const { token, lastName } = await firstToken(departure.eventId);
    expect(NAMES).toContain(lastName);
    expect(leaks(token, lastName)).toEqual([]);
    // Nor as JSON: it is no longer the deployed version's base64url JSON array.
    expect(() => JSON.parse(Buffer.from(token, 'base64url').toString('utf8'))).toThrow();
    // The HTML page's link and the CSV's Link header carry the same token.
    const html = await get(`${manifestUrl(departure.eventId)}?format=html`);
    const htmlToken = /startingAfter=([A-Za-z0-9_-]+)/.exec(html.body)![1]!;
    expect(leaks(htmlToken, lastName)).toEqual([]);
  });

  it('refuses a token with any byte changed, 400 invalid_parameter', async () => {
    const { token } = await firstToken(departure.eventId);
    const bytes = Buffer.from(token, 'base64url');
    // The version, the nonce, the tag, the text's first and last bytes, and a few between.
    const places = [0, 1, 12, 13, 28, 29, 30, bytes.length >> 1, bytes.length - 1];
    for (const at of places) {
      const changed = Buffer.from(bytes);
      changed[at] = changed[at]! ^ 0x01;
      const response = await get(manifestUrl(departure.eventId, changed.toString('base64url')));
      const refused = expectProblem(response, 400, 'invalid_parameter');
      expect(refused.errors, `byte ${at}`).toEqual([
        { in: 'query', name: 'startingAfter', detail: expect.any(String) },
      ]);
    }
    // Cut short, made longer.
    for (const cursor of [
      bytes.subarray(0, -1).toString('base64url'),
      Buffer.concat([bytes, Buffer.of(0)]).toString('base64url'),
      bytes.subarray(0, 40).toString('base64url'),
    ])
      expectProblem(await get(manifestUrl(departure.eventId, cursor)), 400, 'invalid_parameter');
  });

  it("refuses another departure's token, 400 invalid_parameter", async () => {
    const other = await bookings('2030-07-02', ['Eve', 'Frank', 'Grace']);
    const { token } = await firstToken(other.eventId);
    expect((await get(manifestUrl(other.eventId, token))).statusCode).toBe(200);
    const refused = expectProblem(
      await get(manifestUrl(departure.eventId, token)),
      400,
      'invalid_parameter',
    );
    expect(refused.errors).toEqual([
      { in: 'query', name: 'startingAfter', detail: expect.any(String) },
    ]);
  });

  it("still reads the deployed version's unsealed tokens and guests' ids", async () => {
    const first = (await get(manifestUrl(departure.eventId))).json();
    const last = first.guests.at(-1);
    const { rows } = await sql<{ item: number; seat: number }>`
      select i.position as item, g.position as seat
        from order_guests g join order_items i on i.id = g.item_id
       where g.id = ${last.id}`.execute(t.database.db);
    const [{ item: itemPosition, seat }] = rows as [{ item: number; seat: number }];
    // What the deployed version writes: base64url JSON of the departure, then the place.
    const unsealed = Buffer.from(
      JSON.stringify([departure.eventId, last.name, last.order.id, itemPosition, seat, last.id]),
    ).toString('base64url');
    const sealed = (await get(first.paging.next)).json();
    for (const cursor of [unsealed, last.id]) {
      const response = await get(manifestUrl(departure.eventId, cursor));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().guests.map((g: { id: string }) => g.id)).toEqual(
        sealed.guests.map((g: { id: string }) => g.id),
      );
    }
  });
});
