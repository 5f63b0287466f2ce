/**
 * Auto-assignment (an experience's `guide.autoAssign`): a new event, made by a booking or by
 * POST /api/events, gets `required` guides (at least one) that the assignment rules allow,
 * pending their answer; when none is free the event is made anyway, without them. Under
 * concurrent bookings a guide is never put on two overlapping events. Guides that can never
 * take a departure cost a booking no statement of their own, and none is locked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { countStatements } from '../helpers/statement-counter.js';
import {
  ALWAYS,
  assign,
  createEvent,
  createGuide,
  guideIdsOf,
  readEvent,
  type EventView,
} from '../helpers/guides.js';

let t: TestApp;
let customer: Account;
beforeAll(async () => {
  t = await createTestApp();
  customer = await signUp(t.app);
});
afterAll(async () => t.close());

const preferences = (shop: Shop, experienceId: string, payload: Record<string, unknown>) =>
  as(t.app, shop.seller, {
    method: 'POST',
    url: `/api/experiences/${experienceId}/guide`,
    payload,
  });
const eventOfBooking = async (shop: Shop, arrival: string, time = 900): Promise<EventView> => {
  const booked = await book(t.app, customer, { items: [item(shop.experienceId, arrival, time)] });
  expect(booked.statusCode, booked.body).toBe(201);
  return (await readEvent(t.app, shop.seller, booked.json().items[0].event.id)).json();
};
const MORNINGS = { ...ALWAYS, timeRanges: [{ startTime: 800, endTime: 1200 }] };
const EVENINGS = { ...ALWAYS, timeRanges: [{ startTime: 1700, endTime: 2300 }] };

describe('auto-assignment of a booking’s new event', () => {
  it('assigns `required` guides the rules allow, pending, and none to an existing event', async () => {
    const shop = await openShop(t.app);
    const s = shop.seller;
    const early = await createGuide(t.app, s, s.id, { name: 'Early', schedules: [MORNINGS] });
    const late = await createGuide(t.app, s, s.id, { name: 'Late', schedules: [EVENINGS] });
    const any = await createGuide(t.app, s, s.id, { name: 'Any', schedules: [ALWAYS] });
    expect(
      (await preferences(shop, shop.experienceId, { autoAssign: true, required: 2 })).statusCode,
    ).toBe(201);

    const event = await eventOfBooking(shop, '2031-05-01');
    expect(guideIdsOf(event).sort()).toEqual([early.id, any.id].sort());
    expect(event.guides.every((g) => g.status === 'pending')).toBe(true);
    expect(guideIdsOf(event)).not.toContain(late.id);

    // A second booking on the same departure assigns nobody more.
    const again = await eventOfBooking(shop, '2031-05-01');
    expect(again.id).toBe(event.id);
    expect(guideIdsOf(again).sort()).toEqual([early.id, any.id].sort());
  });

  it('skips guides on an overlapping event, and books without guides when none is free', async () => {
    const shop = await openShop(t.app);
    const s = shop.seller;
    const only = await createGuide(t.app, s, s.id, { name: 'Only' });
    await preferences(shop, shop.experienceId, { autoAssign: true, required: 1 });
    const first = await eventOfBooking(shop, '2031-05-02', 900);
    expect(guideIdsOf(first)).toEqual([only.id]);
    // 09:00 + 90 minutes overlaps nothing at 14:00: the guide is free again.
    const afternoon = await eventOfBooking(shop, '2031-05-02', 1400);
    expect(guideIdsOf(afternoon)).toEqual([only.id]);
    // Another experience of the seller at the same morning time: the guide is busy.
    const other = await as(t.app, s, {
      method: 'POST',
      url: '/api/experiences',
      payload: {
        name: 'River walk',
        price: 10,
        priceType: 'person',
        currency: 'EUR',
        duration: 60,
        timezone: 'Europe/Paris',
        schedules: [{ type: 'available', repeat: 'weekly', days: [5], times: [930] }],
      },
    });
    await preferences(shop, other.json().id, { autoAssign: true, required: 1 });
    const booked = await book(t.app, customer, {
      items: [item(other.json().id, '2031-05-02', 930)],
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const clash = (await readEvent(t.app, s, booked.json().items[0].event.id)).json();
    expect(clash.guides).toEqual([]);
  });

  it('assigns one guide when autoAssign asks for required 0, and none without autoAssign', async () => {
    const shop = await openShop(t.app);
    const s = shop.seller;
    const a = await createGuide(t.app, s, s.id, { name: 'A' });
    const b = await createGuide(t.app, s, s.id, { name: 'B' });
    await preferences(shop, shop.experienceId, { autoAssign: false, required: 2 });
    expect((await eventOfBooking(shop, '2031-05-03')).guides).toEqual([]);
    await as(t.app, s, {
      method: 'PUT',
      url: `/api/experiences/${shop.experienceId}/guide`,
      payload: { autoAssign: true, required: 0 },
    });
    const one = guideIdsOf(await eventOfBooking(shop, '2031-05-04'));
    expect(one).toHaveLength(1);
    expect([a.id, b.id]).toContain(one[0]);
  });

  it('leaves deleted guides and guides of other sellers out', async () => {
    const shop = await openShop(t.app);
    const other = await openShop(t.app);
    await createGuide(t.app, other.seller, other.seller.id, { name: 'Not ours' });
    const gone = await createGuide(t.app, shop.seller, shop.seller.id, { name: 'Gone' });
    await as(t.app, shop.seller, {
      method: 'DELETE',
      url: `/api/sellers/${shop.seller.id}/guides/${gone.id}`,
    });
    await preferences(shop, shop.experienceId, { autoAssign: true, required: 3 });
    expect((await eventOfBooking(shop, '2031-05-05')).guides).toEqual([]);
  });
});

describe('what auto-assignment costs a booking', () => {
  it('reads the guides once per new departure and locks none when none can take it', async () => {
    const shop = await openShop(t.app);
    const s = shop.seller;
    // Thirty guides that can never take a departure: no schedule, only unavailable, blacked out.
    for (let i = 0; i < 30; i++) {
      const schedules = [
        [],
        [{ ...ALWAYS, type: 'unavailable' }],
        [ALWAYS, { ...ALWAYS, type: 'blackout' }],
      ][i % 3];
      await createGuide(t.app, s, s.id, { name: `Never ${i}`, schedules });
    }
    await preferences(shop, shop.experienceId, { autoAssign: true, required: 3 });
    const items = ['2031-08-04', '2031-08-05', '2031-08-06', '2031-08-07', '2031-08-08'].map((d) =>
      item(shop.experienceId, d, 900),
    );
    let booked: Awaited<ReturnType<typeof book>> | undefined;
    const statements = await countStatements(async () => {
      booked = await book(t.app, customer, { items });
    });
    expect(booked!.statusCode, booked!.body).toBe(201);
    const onGuides = statements.filter((q) => /from "guides"/i.test(q));
    // Only guides with an available schedule are read (the blacked-out ten, refused by the
    // rule in JS), a page or two of them per new departure; before, a locking statement each.
    expect(onGuides.length).toBeGreaterThan(0);
    expect(onGuides.length).toBeLessThanOrEqual(items.length * 2);
    expect(onGuides.filter((q) => /for update/i.test(q))).toEqual([]);
    for (const event of booked!.json().items)
      expect((await readEvent(t.app, s, event.event.id)).json().guides).toEqual([]);
  });
});

describe('auto-assignment of POST /api/events', () => {
  it('staffs a new event without guides given; never one with guides given or an update', async () => {
    const shop = await openShop(t.app);
    const s = shop.seller;
    const a = await createGuide(t.app, s, s.id, { name: 'A' });
    const b = await createGuide(t.app, s, s.id, { name: 'B' });
    await preferences(shop, shop.experienceId, { autoAssign: true, required: 1 });
    const made = await createEvent(t.app, s, shop.experienceId, '2031-06-01T09:00');
    expect(guideIdsOf(made)).toHaveLength(1);
    const chosen = guideIdsOf(made)[0]!;
    // The upsert of the same start is an update: nothing more is assigned.
    const updated = await createEvent(t.app, s, shop.experienceId, '2031-06-01T09:00', { max: 4 });
    expect(guideIdsOf(updated)).toEqual([chosen]);
    // Guides given are the event's guides: no auto-assignment on top.
    const given = await createEvent(t.app, s, shop.experienceId, '2031-06-02T09:00', {
      guides: [b.id],
    });
    expect(guideIdsOf(given)).toEqual([b.id]);
    const none = await createEvent(t.app, s, shop.experienceId, '2031-06-03T09:00', {
      guides: [],
    });
    expect(none.guides).toEqual([]);
    expect([a.id, b.id]).toContain(chosen);
  });
});

describe('auto-assignment under concurrent bookings', () => {
  it('never puts a guide on two overlapping events', async () => {
    const shop = await openShop(t.app);
    const s = shop.seller;
    const guides = [
      await createGuide(t.app, s, s.id, { name: 'One' }),
      await createGuide(t.app, s, s.id, { name: 'Two' }),
    ];
    // Five experiences departing at the same time, each asking for a guide.
    const experiences: string[] = [];
    for (let i = 0; i < 5; i++) {
      const made = await as(t.app, s, {
        method: 'POST',
        url: '/api/experiences',
        payload: {
          name: `Tour ${i}`,
          price: 10,
          priceType: 'person',
          currency: 'EUR',
          duration: 120,
          timezone: 'Europe/Paris',
          schedules: [{ type: 'available', repeat: 'weekly', days: [2], times: [1000] }],
        },
      });
      experiences.push(made.json().id);
      await preferences(shop, made.json().id, { autoAssign: true, required: 1 });
    }
    const booked = await Promise.all(
      experiences.map((id) => book(t.app, customer, { items: [item(id, '2031-07-01', 1000)] })),
    );
    expect(booked.map((r) => r.statusCode)).toEqual(experiences.map(() => 201));
    const events = await Promise.all(
      booked.map(async (r) =>
        (await readEvent(t.app, s, r.json().items[0].event.id)).json<EventView>(),
      ),
    );
    const assigned = events.flatMap(guideIdsOf);
    // Each guide at most once (the events overlap); at most the two guides there are, and at
    // least one (a guide is skipped only while another booking is looking at it).
    expect(new Set(assigned).size).toBe(assigned.length);
    expect(assigned.length).toBeGreaterThanOrEqual(1);
    expect(assigned.length).toBeLessThanOrEqual(2);
    for (const id of assigned) expect(guides.map((g) => g.id)).toContain(id);
    // Manual assignment agrees: the overlap rule sees the auto-assigned events.
    const unstaffed = events.find((e) => e.guides.length === 0)!;
    const conflict = await assign(t.app, s, unstaffed.id, { guide: { id: assigned[0]! } });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().code).toBe('guide_conflict');
  });
});
