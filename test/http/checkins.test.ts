/**
 * Check-in at the dock (issue 29, docs/operations-day.md), through the public API: by a
 * guest's ticket code, an item's, an order's short code; once per guest (a second scan is
 * 409 naming when and by whom); canceled seats; another seller's code (404, the body of an
 * unknown code); departures on another day (409 wrong_day, and force); undo; Xola's modify;
 * who may; and the order.update each check-in emits.
 */
import { sql } from 'kysely';
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
import { delegate } from '../helpers/guides.js';

let t: TestApp;
let shop: Shop;
let other: Shop;
let dock: Account;
let customer: Account;
const today = new Date().toISOString().slice(0, 10);
const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp();
  // UTC departures, so that "today" here is the departure's local day.
  shop = await openShop(t.app, { timezone: 'UTC', group: { outingMax: 200 } });
  other = await openShop(t.app, { timezone: 'UTC' });
  dock = await delegate(t.app, shop.seller, ['ROLE_CHECKIN'], 'Dock Dana');
  customer = await signUp(t.app);
});
afterAll(async () => t.close());

/** An order booked by the seller (staff may book today's departures that have started). */
async function booked(s: Shop, items: object[]) {
  const response = await book(t.app, s.seller, { customerName: 'Pat Guest', items });
  expect(response.statusCode).toBe(201);
  return response.json();
}
const scan = (who: Account, payload: Record<string, unknown>) =>
  as(t.app, who, { method: 'POST', url: '/api/checkins', payload });
const read = async (id: string) =>
  (await as(t.app, shop.seller, { method: 'GET', url: `/api/orders/${id}` })).json();
const statuses = (order: { items: { guests: { guestStatus: string }[] }[] }) =>
  order.items.map((i) => i.guests.map((g) => g.guestStatus));

describe('check-in by code', () => {
  it('checks a guest in by its ticket code, once; a second scan names when and by whom', async () => {
    const order = await booked(shop, [item(shop.experienceId, today, 900, 2)]);
    const [guest] = order.items[0].guests;
    const first = await scan(dock, { code: guest.ticketCode });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      object: 'checkin_result',
      checkins: [
        {
          object: 'checkin',
          id: expect.stringMatching(/^[0-9a-f]{24}$/),
          seller: { id: shop.seller.id },
          guest: { id: guest.id },
          ticketCode: guest.ticketCode,
          demographic: null,
          guestType: null,
          order: { id: order.id },
          shortCode: order.shortCode,
          customerName: 'Pat Guest',
          item: { id: order.items[0].id },
          event: order.items[0].event,
          arrival: today,
          arrivalTime: 900,
          source: 'scan',
          createdAt: expect.any(String),
          createdBy: { id: dock.id },
          undoneAt: null,
          undoneBy: null,
        },
      ],
    });
    const after = await read(order.id);
    expect(statuses(after)).toEqual([['arrived', 'pending']]);
    expect(after.items[0].guestStatus).toBe('pending');

    const again = expectProblem(
      await scan(shop.seller, { code: guest.ticketCode.toUpperCase() }),
      409,
      'already_checked_in',
    );
    expect(again).toMatchObject({
      guest: { id: guest.id },
      checkedInAt: first.json().checkins[0].createdAt,
      checkedInBy: { id: dock.id, name: 'Dock Dana' },
    });
    expect(again.detail).toContain('Dock Dana');
  });

  it("checks in an order's guests not yet arrived by its short code (any case), today's only", async () => {
    const order = await booked(shop, [
      item(shop.experienceId, today, 1400, 2),
      item(shop.experienceId, tomorrow, 900, 1),
    ]);
    await scan(dock, { code: order.items[0].guests[1].ticketCode });
    const byCode = await scan(dock, { code: order.shortCode.toLowerCase() });
    expect(byCode.statusCode).toBe(201);
    expect(byCode.json().checkins.map((c: { guest: { id: string } }) => c.guest.id)).toEqual([
      order.items[0].guests[0].id,
    ]);
    const after = await read(order.id);
    expect(statuses(after)).toEqual([['arrived', 'arrived'], ['pending']]);
    expect(after.items.map((i: { guestStatus: string }) => i.guestStatus)).toEqual([
      'arrived',
      'pending',
    ]);
    // Today's guests all in, the one left tomorrow's: a second scan of the same code is told
    // who is in (not to force tomorrow's in), and checks in nobody.
    const again = expectProblem(
      await scan(dock, { code: order.shortCode }),
      409,
      'already_checked_in',
    );
    expect(statuses(await read(order.id))).toEqual([['arrived', 'arrived'], ['pending']]);
    expect(again.detail).toMatch(/Dock Dana/);
    const forced = await scan(dock, { code: order.shortCode, force: true });
    expect(forced.json().checkins).toHaveLength(1);
    expectProblem(await scan(dock, { code: order.shortCode }), 409, 'already_checked_in');
  });

  it("checks in an item's guests by the item's ticket code", async () => {
    const order = await booked(shop, [item(shop.experienceId, today, 900, 3)]);
    const response = await scan(dock, { code: order.items[0].ticketCode });
    expect(response.json().checkins).toHaveLength(3);
    expect((await read(order.id)).items[0].guestStatus).toBe('arrived');
  });

  it('refuses a departure on another day unless forced', async () => {
    const order = await booked(shop, [item(shop.experienceId, tomorrow, 1400, 1)]);
    const code = order.items[0].guests[0].ticketCode;
    const refused = expectProblem(await scan(dock, { code }), 409, 'wrong_day');
    expect(refused).toMatchObject({
      today,
      departures: [{ event: order.items[0].event, arrival: tomorrow, arrivalTime: 1400 }],
    });
    expect(statuses(await read(order.id))).toEqual([['pending']]);
    expect((await scan(dock, { code, force: true })).statusCode).toBe(201);
  });

  it('refuses a canceled seat', async () => {
    const order = await booked(shop, [item(shop.experienceId, today, 900, 2)]);
    const resized = await as(t.app, shop.seller, {
      method: 'PATCH',
      url: `/api/orders/${order.id}`,
      payload: { items: [{ id: order.items[0].id, quantity: 1 }] },
    });
    expect(resized.statusCode).toBe(200);
    const gone = order.items[0].guests[1];
    expect(
      expectProblem(await scan(dock, { code: gone.ticketCode }), 409, 'guest_canceled'),
    ).toMatchObject({ guest: { id: gone.id } });
    await as(t.app, shop.seller, { method: 'POST', url: `/api/orders/${order.id}/cancel` });
    expectProblem(await scan(dock, { code: order.shortCode }), 409, 'guest_canceled');
  });

  it('refuses a seat whose hold has run out, before the sweeper has given it back', async () => {
    const order = await booked(shop, [{ ...item(shop.experienceId, today, 900, 1), status: 103 }]);
    const [guest] = order.items[0].guests;
    // The sweeper is off here: the hold's deadline passes, its seat not yet given back.
    await t.database.db
      .updateTable('orders')
      .set({ hold_expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', order.id)
      .execute();
    const refused = expectProblem(
      await scan(dock, { code: guest.ticketCode }),
      409,
      'guest_canceled',
    );
    expect(refused.detail).toContain('hold');
    expectProblem(await scan(dock, { code: order.shortCode }), 409, 'guest_canceled');
    expect(statuses(await read(order.id))).toEqual([['pending']]);
  });

  it("answers another seller's code exactly as a code nobody has", async () => {
    const theirs = await booked(other, [item(other.experienceId, today, 900, 1)]);
    const strip = (body: Record<string, unknown>) => ({ ...body, requestId: undefined });
    const foreign = expectProblem(
      await scan(dock, { code: theirs.items[0].guests[0].ticketCode }),
      404,
      'not_found',
    );
    const unknown = expectProblem(await scan(dock, { code: 'f'.repeat(32) }), 404, 'not_found');
    expect(strip(foreign)).toEqual(strip(unknown));
    const byShortCode = expectProblem(
      await scan(dock, { code: theirs.shortCode }),
      404,
      'not_found',
    );
    expect(strip(byShortCode)).toEqual(strip(unknown));
    expect(
      statuses(
        await (
          await as(t.app, other.seller, { method: 'GET', url: `/api/orders/${theirs.id}` })
        ).json(),
      ),
    ).toEqual([['pending']]);
  });

  it('refuses malformed codes with 400', async () => {
    for (const payload of [
      {},
      { code: '' },
      { code: 'abc def' },
      { code: 'x'.repeat(65) },
      { code: 'a', extra: 1 },
    ])
      expectProblem(await scan(dock, payload), 400, 'validation_failed');
  });
});

describe('undo', () => {
  it('puts the guest back to pending, keeps the check-in undone, and lets it check in again', async () => {
    const order = await booked(shop, [item(shop.experienceId, today, 900, 1)]);
    const code = order.items[0].guests[0].ticketCode;
    const [checkin] = (await scan(dock, { code })).json().checkins;
    const undone = await as(t.app, dock, { method: 'DELETE', url: `/api/checkins/${checkin.id}` });
    expect(undone.statusCode).toBe(200);
    expect(undone.json()).toMatchObject({
      id: checkin.id,
      undoneAt: expect.any(String),
      undoneBy: { id: dock.id },
    });
    expect(statuses(await read(order.id))).toEqual([['pending']]);
    expectProblem(
      await as(t.app, dock, { method: 'DELETE', url: `/api/checkins/${checkin.id}` }),
      404,
      'not_found',
    );
    expect((await scan(dock, { code })).statusCode).toBe(201);
    const records = await t.database.db
      .selectFrom('checkins')
      .select(['undone_at'])
      .where('guest_id', '=', order.items[0].guests[0].id)
      .execute();
    expect(records).toHaveLength(2);
  });

  it("is 404 for another seller's staff and for ids nobody has", async () => {
    const order = await booked(shop, [item(shop.experienceId, today, 900, 1)]);
    const [checkin] = (await scan(dock, { code: order.shortCode })).json().checkins;
    expectProblem(
      await as(t.app, other.seller, { method: 'DELETE', url: `/api/checkins/${checkin.id}` }),
      404,
      'not_found',
    );
    expectProblem(
      await as(t.app, dock, { method: 'DELETE', url: `/api/checkins/${'a'.repeat(24)}` }),
      404,
      'not_found',
    );
    expectProblem(
      await as(t.app, dock, { method: 'DELETE', url: '/api/checkins/nope' }),
      400,
      'validation_failed',
    );
  });
});

describe('the trail', () => {
  it('lists check-ins, undone ones too, in the query language, for the sellers the caller checks in for', async () => {
    const order = await booked(shop, [item(shop.experienceId, today, 900, 2)]);
    const result = (await scan(dock, { code: order.shortCode })).json();
    const [first, second] = result.checkins;
    await as(t.app, dock, { method: 'DELETE', url: `/api/checkins/${first.id}` });
    const list = await as(t.app, dock, {
      method: 'GET',
      url: `/api/checkins?order=${order.id}&sort=createdAt&count=true`,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().paging.total).toBe(2);
    // One scan's check-ins share their time: in creation order, their ids decide.
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
    expect(list.json().data).toEqual(
      [{ ...first, undoneAt: expect.any(String), undoneBy: { id: dock.id } }, second].sort(byId),
    );
    const live = await as(t.app, dock, {
      method: 'GET',
      url: `/api/checkins?order=${order.id}&undoneAt[exists]=false`,
    });
    expect(live.json().data.map((c: { id: string }) => c.id)).toEqual([second.id]);
    expect(
      (await as(t.app, dock, { method: 'GET', url: `/api/checkins/${second.id}` })).json(),
    ).toEqual(second);
    for (const who of [other.seller, customer]) {
      expect(
        (await as(t.app, who, { method: 'GET', url: `/api/checkins?order=${order.id}` })).json()
          .data,
      ).toEqual([]);
      expectProblem(
        await as(t.app, who, { method: 'GET', url: `/api/checkins/${second.id}` }),
        404,
        'not_found',
      );
    }
    expectProblem(
      await as(t.app, dock, { method: 'GET', url: '/api/checkins?source=phone' }),
      400,
      'invalid_value',
    );
  });
});

describe("Xola's modify", () => {
  const modify = (who: Account, id: string, guestStatus: unknown) =>
    as(t.app, who, {
      method: 'POST',
      url: `/api/orders/${id}/modify`,
      payload: { updates: { guestStatus } },
    });

  it('sets every live guest of the order, and answers the order', async () => {
    const order = await booked(shop, [
      item(shop.experienceId, today, 900, 2),
      item(shop.experienceId, tomorrow, 900, 1),
    ]);
    const arrived = await modify(shop.seller, order.id, 'arrived');
    expect(arrived.statusCode).toBe(200);
    expect(statuses(arrived.json())).toEqual([['arrived', 'arrived'], ['arrived']]);
    expect(arrived.json().items.map((i: { guestStatus: string }) => i.guestStatus)).toEqual([
      'arrived',
      'arrived',
    ]);
    const records = () =>
      t.database.db
        .selectFrom('checkins')
        .select(['source', 'undone_at'])
        .where('order_id', '=', order.id)
        .execute();
    expect(await records()).toEqual([0, 1, 2].map(() => ({ source: 'modify', undone_at: null })));
    const noShow = await modify(shop.seller, order.id, 'no_show');
    expect(statuses(noShow.json())).toEqual([['no_show', 'no_show'], ['no_show']]);
    expect(noShow.json().items[0].guestStatus).toBe('no_show');
    expect((await records()).every((r) => r.undone_at !== null)).toBe(true);
    const back = await modify(shop.seller, order.id, 'pending');
    expect(statuses(back.json())).toEqual([['pending', 'pending'], ['pending']]);
  });

  it('is for the seller and its reservation staff; others are refused; a bad status is 400', async () => {
    // The customer's own order: it may read it, not set its guests.
    const own = await book(t.app, customer, {
      items: [item(shop.experienceId, tomorrow, 1400, 1)],
    });
    expectProblem(await modify(customer, own.json().id, 'arrived'), 403, 'forbidden');
    const order = await booked(shop, [item(shop.experienceId, today, 900, 1)]);
    const desk = await delegate(t.app, shop.seller, ['ROLE_RESERVATION'], 'Desk');
    expect((await modify(desk, order.id, 'arrived')).statusCode).toBe(200);
    expectProblem(await modify(customer, order.id, 'pending'), 404, 'not_found');
    expectProblem(await modify(dock, order.id, 'pending'), 404, 'not_found');
    expectProblem(await modify(other.seller, order.id, 'pending'), 404, 'not_found');
    expectProblem(await modify(shop.seller, order.id, 'gone'), 400, 'validation_failed');
    await as(t.app, shop.seller, { method: 'POST', url: `/api/orders/${order.id}/cancel` });
    expectProblem(await modify(shop.seller, order.id, 'arrived'), 409, 'already_canceled');
  });
});

describe('who may check in', () => {
  it('the seller, its seller-admin, reservation and check-in staff; not customers, guides or strangers', async () => {
    const order = await booked(shop, [item(shop.experienceId, today, 900, 6)]);
    const codes = order.items[0].guests.map((g: { ticketCode: string }) => g.ticketCode);
    const admin = await delegate(t.app, shop.seller, ['ROLE_SELLER_ADMIN'], 'Admin');
    const desk = await delegate(t.app, shop.seller, ['ROLE_RESERVATION'], 'Desk');
    const guide = await delegate(t.app, shop.seller, ['ROLE_GUIDE'], 'Guide');
    const curator = await delegate(t.app, shop.seller, ['ROLE_CURATOR'], 'Curator');
    const otherStaff = await delegate(t.app, other.seller, ['ROLE_CHECKIN'], 'Elsewhere');
    for (const [who, code] of [
      [customer, codes[0]],
      [guide, codes[0]],
      [curator, codes[0]],
      [otherStaff, codes[0]],
      [other.seller, codes[0]],
    ] as const)
      expectProblem(await scan(who, { code }), 404, 'not_found');
    expectProblem(
      await as(t.app, null, { method: 'POST', url: '/api/checkins', payload: { code: codes[0] } }),
      401,
      'authentication_required',
    );
    for (const [i, who] of [shop.seller, admin, desk, dock].entries())
      expect((await scan(who, { code: codes[i] })).statusCode).toBe(201);
  });

  it('gives ROLE_CHECKIN nothing else: no orders, no events, no experiences to manage', async () => {
    const order = await booked(shop, [item(shop.experienceId, today, 900, 1)]);
    expectProblem(
      await as(t.app, dock, { method: 'GET', url: `/api/orders/${order.id}` }),
      404,
      'not_found',
    );
    expect((await as(t.app, dock, { method: 'GET', url: '/api/orders' })).json().data).toEqual([]);
    expect((await as(t.app, dock, { method: 'GET', url: '/api/events' })).json().data).toEqual([]);
    const changed = await as(t.app, dock, {
      method: 'PUT',
      url: `/api/experiences/${shop.experienceId}`,
      payload: { name: 'Mine now' },
    });
    expect(changed.statusCode).toBe(403);
  });
});

describe("the order's updatedAt", () => {
  it('moves forward with each check-in, undo and modify, in the read, the answer and the event', async () => {
    const order = await booked(shop, [item(shop.experienceId, today, 900, 1)]);
    const stamps = [(await read(order.id)).updatedAt as string];
    const moved = async () => {
      const now = (await read(order.id)).updatedAt as string;
      expect(Date.parse(now)).toBeGreaterThan(Date.parse(stamps.at(-1)!));
      stamps.push(now);
    };
    const [checkin] = (await scan(dock, { code: order.shortCode })).json().checkins;
    await moved();
    await as(t.app, dock, { method: 'DELETE', url: `/api/checkins/${checkin.id}` });
    await moved();
    const modified = await as(t.app, shop.seller, {
      method: 'POST',
      url: `/api/orders/${order.id}/modify`,
      payload: { updates: { guestStatus: 'no_show' } },
    });
    await moved();
    expect(modified.json().updatedAt).toBe(stamps.at(-1));
    const events = await t.database.db
      .selectFrom('domain_events')
      .select(sql<string>`object ->> 'updatedAt'`.as('updatedAt'))
      .where(sql<string>`object ->> 'id'`, '=', order.id)
      .orderBy('seq')
      .execute();
    expect(events.map((e) => e.updatedAt)).toEqual(stamps);
  });
});

describe('domain events', () => {
  it('emits order.update with the guests statuses in its audit, for each check-in and undo', async () => {
    const order = await booked(shop, [item(shop.experienceId, today, 900, 1)]);
    const [checkin] = (await scan(dock, { code: order.shortCode })).json().checkins;
    await as(t.app, dock, { method: 'DELETE', url: `/api/checkins/${checkin.id}` });
    const events = await t.database.db
      .selectFrom('domain_events')
      .select(['name', 'actor_id', 'audit', 'object'])
      .where(sql<string>`object ->> 'id'`, '=', order.id)
      .orderBy('seq')
      .execute();
    expect(events.map((e) => e.name)).toEqual(['order.create', 'order.update', 'order.update']);
    const [, checkedIn, undone] = events;
    expect(checkedIn!.actor_id).toBe(dock.id);
    expect(JSON.stringify(checkedIn!.audit)).toContain('arrived');
    expect(
      (checkedIn!.object as { items: { guests: { guestStatus: string }[] }[] }).items[0]!.guests[0]!
        .guestStatus,
    ).toBe('arrived');
    expect((undone!.object as { items: { guestStatus: string }[] }).items[0]!.guestStatus).toBe(
      'pending',
    );
  });
});
