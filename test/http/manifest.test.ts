/**
 * A departure's manifest (issue 29, docs/operations-day.md) through the public API: its
 * guides and live guests with counts, as JSON, CSV (RFC 4180, formulas defused) and a
 * printable HTML page (escaped, strict CSP); two queries whatever the number of guests;
 * foreign sellers and customers get 404.
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
import { ALWAYS, assign, createEvent, createGuide, delegate } from '../helpers/guides.js';
import { countStatements } from '../helpers/statement-counter.js';

const FORMULA = "=cmd|' /C calc'!A0";
const SCRIPT = '<script>alert("x")</script>';

let t: TestApp;
let shop: Shop;
let dock: Account;
let eventId: string;
let orders: { id: string; shortCode: string; items: { guests: { ticketCode: string }[] }[] }[];
const day = '2030-06-01';

beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app, {
    demographics: [
      { label: 'Adult', code: 'adult' },
      { label: 'Child <small>', code: 'child', price: 10 },
    ],
  });
  dock = await delegate(t.app, shop.seller, ['ROLE_CHECKIN'], 'Dock');
  const experience = (
    await as(t.app, shop.seller, { method: 'GET', url: `/api/experiences/${shop.experienceId}` })
  ).json();
  const [adult, child] = experience.demographics.map((d: { id: string }) => d.id);
  const typed = (quantities: [number, number]) => ({
    ...item(shop.experienceId, day),
    quantity: undefined,
    demographics: [
      { demographic: { id: adult }, quantity: quantities[0] },
      { demographic: { id: child }, quantity: quantities[1] },
    ],
  });
  orders = [];
  for (const [customerName, notes, items] of [
    ['Ann Archer', [{ text: 'Vegetarian lunch' }], [typed([2, 1])]],
    [FORMULA, [{ text: '+1 555 0100, "window seat"' }], [item(shop.experienceId, day, 900, 1)]],
    [SCRIPT, [{ text: '@everyone <b>bold</b>' }], [item(shop.experienceId, day, 900, 2)]],
    ['Gone Away', [], [item(shop.experienceId, day, 900, 1)]],
  ] as const) {
    const response = await book(t.app, shop.seller, { customerName, notes, items });
    expect(response.statusCode).toBe(201);
    orders.push(response.json());
  }
  eventId = (orders[0] as unknown as { items: { event: { id: string } }[] }).items[0]!.event.id;
  // One arrived (forced: the departure is not today), one no-show, one canceled booking.
  const arrived = await as(t.app, dock, {
    method: 'POST',
    url: '/api/checkins',
    payload: { code: orders[0]!.items[0]!.guests[0]!.ticketCode, force: true },
  });
  expect(arrived.statusCode).toBe(201);
  await as(t.app, shop.seller, {
    method: 'POST',
    url: `/api/orders/${orders[2]!.id}/modify`,
    payload: { updates: { guestStatus: 'no_show' } },
  });
  await as(t.app, shop.seller, { method: 'POST', url: `/api/orders/${orders[3]!.id}/cancel` });
  // A guide on the departure.
  const guide = await as(t.app, shop.seller, {
    method: 'POST',
    url: `/api/sellers/${shop.seller.id}/guides`,
    payload: {
      name: 'Gus <Guide>',
      email: 'gus@example.com',
      phone: '+33 6 00 00 00 00',
      schedules: [{ type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6] }],
    },
  });
  expect(guide.statusCode).toBe(201);
  const assigned = await as(t.app, shop.seller, {
    method: 'POST',
    url: `/api/events/${eventId}/guides`,
    payload: { guide: { id: guide.json().id } },
  });
  expect(assigned.statusCode).toBe(201);
});
afterAll(async () => t.close());

const manifest = (who: Account | null, query = '', headers: Record<string, string> = {}) =>
  as(t.app, who, { method: 'GET', url: `/api/events/${eventId}/manifest${query}`, headers });

describe('manifest', () => {
  it("lists the departure's guides and live guests with counts, by name", async () => {
    const response = await manifest(dock);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      object: 'manifest',
      event: { object: 'event', id: eventId, title: 'Harbour Kayak' },
      date: day,
      timezone: 'Europe/Paris',
      guides: [{ name: 'Gus <Guide>', phone: '+33 6 00 00 00 00', status: 'pending' }],
      counts: { booked: 6, arrived: 1, noShow: 2, pending: 3 },
    });
    const rows = body.guests.map((g: Record<string, unknown>) => [
      g.name,
      g.guestType,
      g.guestStatus,
    ]);
    expect(rows).toEqual([
      [SCRIPT, null, 'no_show'],
      [SCRIPT, null, 'no_show'],
      [FORMULA, null, 'pending'],
      ['Ann Archer', 'Adult', 'arrived'],
      ['Ann Archer', 'Adult', 'pending'],
      ['Ann Archer', 'Child <small>', 'pending'],
    ]);
    expect(body.guests[3]).toMatchObject({
      shortCode: orders[0]!.shortCode,
      ticketCode: orders[0]!.items[0]!.guests[0]!.ticketCode,
      notes: ['Vegetarian lunch'],
      checkedInAt: expect.any(String),
      itemStatus: 200,
      order: { id: orders[0]!.id },
    });
  });

  it('reads the manifest in two queries whatever the number of guests', async () => {
    await manifest(dock);
    const statements = await countStatements(() => manifest(dock));
    expect(statements).toHaveLength(2);
  });

  it('gives the same as CSV: one row per guest, every cell quoted, formulas defused', async () => {
    for (const response of [
      await manifest(dock, '', { accept: 'text/csv' }),
      await manifest(dock, '?format=csv'),
    ]) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
      expect(response.headers['content-disposition']).toMatch(
        /^attachment; filename="manifest-2030-06-01-[0-9a-f]{24}\.csv"$/,
      );
      const text = response.body;
      expect(text.startsWith('\ufeff"departure","name",')).toBe(true);
      const lines = text.slice(1).split('\r\n');
      expect(lines.at(-1)).toBe('');
      expect(lines).toHaveLength(8);
      expect(lines).toContain(
        [
          '2030-06-01T09:00:00+02:00',
          `'${FORMULA}`.replace(/"/g, '""'),
          '',
          orders[1]!.shortCode,
          orders[1]!.items[0]!.guests[0]!.ticketCode,
          'pending',
          '',
          `'+1 555 0100, ""window seat""`,
        ]
          .map((c) => `"${c}"`)
          .join(','),
      );
      expect(text).toContain(`"'@everyone <b>bold</b>"`);
      // No cell starts a formula: each opens with a quote, then anything but = + - @.
      for (const line of lines.slice(1, -1))
        for (const cell of line.match(/"(?:[^"]|"")*"/g)!) expect(cell).not.toMatch(/^"[=+\-@]/);
    }
  });

  it('gives a printable HTML page, every value escaped, under a strict CSP', async () => {
    const response = await manifest(dock, '?format=html');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe');
    const html = response.body;
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>bold');
    expect(html).not.toContain('<small>');
    expect(html).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;');
    expect(html).toContain('Gus &#60;Guide&#62;');
    expect(html).toContain(orders[0]!.items[0]!.guests[0]!.ticketCode);
    expect(html).toContain('Booked <strong>6</strong>');
  });

  it('is 404 for foreign sellers, their staff, customers and guides; 401 without credentials', async () => {
    const stranger = await openShop(t.app);
    const theirDock = await delegate(t.app, stranger.seller, ['ROLE_CHECKIN'], 'Theirs');
    const guide = await delegate(t.app, shop.seller, ['ROLE_GUIDE'], 'Guide');
    const customer = await signUp(t.app);
    const unknown = await as(t.app, dock, {
      method: 'GET',
      url: `/api/events/${'a'.repeat(24)}/manifest`,
    });
    expectProblem(unknown, 404, 'not_found');
    for (const who of [stranger.seller, theirDock, guide, customer]) {
      const response = await manifest(who);
      expectProblem(response, 404, 'not_found');
      expect(response.json().detail).toBe(`Event ${eventId} was not found.`);
    }
    for (const format of ['?format=csv', '?format=html'])
      expectProblem(await manifest(stranger.seller, format), 404, 'not_found');
    expectProblem(await manifest(null), 401, 'authentication_required');
    expectProblem(await manifest(dock, '?format=pdf'), 400, 'validation_failed');
    const desk = await delegate(t.app, shop.seller, ['ROLE_RESERVATION'], 'Desk');
    for (const who of [shop.seller, desk]) expect((await manifest(who)).statusCode).toBe(200);
  });

  it('names the guides working the departure, with their phones; not those declined or deleted', async () => {
    const s = shop.seller;
    // A departure already run, so a guide deleted since stays on it (as history).
    const past = await createEvent(t.app, s, shop.experienceId, '2020-01-06T09:00');
    const guide = (name: string, phone: string) =>
      createGuide(t.app, s, s.id, { name, phone, schedules: [ALWAYS] });
    const working = await guide('Working', '+33 6 11 11 11 11');
    const declined = await guide('Declined', '+33 6 22 22 22 22');
    const deleted = await guide('Deleted', '+33 6 33 33 33 33');
    for (const g of [working, declined, deleted])
      expect((await assign(t.app, s, past.id, { guide: { id: g.id } })).statusCode).toBe(201);
    const answered = await as(t.app, s, {
      method: 'PUT',
      url: `/api/events/${past.id}/guides/${declined.id}`,
      payload: { status: 'declined' },
    });
    expect(answered.statusCode).toBe(200);
    const removed = await as(t.app, s, {
      method: 'DELETE',
      url: `/api/sellers/${s.id}/guides/${deleted.id}`,
    });
    expect(removed.statusCode).toBe(204);

    for (const who of [dock, s]) {
      const response = await as(t.app, who, {
        method: 'GET',
        url: `/api/events/${past.id}/manifest`,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().guides).toEqual([
        { id: working.id, name: 'Working', phone: '+33 6 11 11 11 11', status: 'pending' },
      ]);
      expect(response.body).not.toContain('22 22 22');
      expect(response.body).not.toContain('33 33 33');
    }
  });
});
