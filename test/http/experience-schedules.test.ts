/**
 * Experience schedules as a sub-resource (`/api/experiences/{id}/schedules[/{scheduleId}]`)
 * with stable ids and Xola's fields (blackout, departure, priceDelta, date-time bounds):
 * what each change does to availability, prices and booked orders, and that a hostile
 * tenant or a malformed body changes nothing.
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
import { delegate } from '../helpers/guides.js';

let t: TestApp;
let customer: Account;
beforeAll(async () => {
  t = await createTestApp();
  customer = await signUp(t.app);
});
afterAll(async () => t.close());

const url = (shop: Shop, scheduleId?: string) =>
  `/api/experiences/${shop.experienceId}/schedules${scheduleId ? `/${scheduleId}` : ''}`;
const post = (account: Account | null, shop: Shop, payload: unknown) =>
  as(t.app, account, { method: 'POST', url: url(shop), payload: payload as object });
const put = (account: Account | null, shop: Shop, id: string, payload: unknown) =>
  as(t.app, account, { method: 'PUT', url: url(shop, id), payload: payload as object });
const remove = (account: Account | null, shop: Shop, id: string) =>
  as(t.app, account, { method: 'DELETE', url: url(shop, id) });
const experience = async (shop: Shop) =>
  (
    await as(t.app, shop.seller, { method: 'GET', url: `/api/experiences/${shop.experienceId}` })
  ).json<{ schedules: { id: string }[]; updatedAt: string }>();
const availability = async (shop: Shop, start: string, end = start) =>
  (
    await as(t.app, null, {
      method: 'GET',
      url: `/api/experiences/${shop.experienceId}/availability?start=${start}&end=${end}`,
    })
  ).json<Record<string, Record<string, number | null>>>();

describe('POST /api/experiences/{id}/schedules', () => {
  it('adds a schedule with Xola’s fields and answers with it; the others keep their ids', async () => {
    const shop = await openShop(t.app);
    const before = (await experience(shop)).schedules;
    const created = await post(shop.seller, shop, {
      name: 'Sunset run',
      type: 'available',
      repeat: 'custom',
      dates: ['2030-06-05'],
      times: [1930],
      departure: 'varies',
      priceDelta: 4.5,
      start: '2030-06-01T00:00:00+02:00',
      end: '2030-06-30T23:59:59Z',
    });
    expect(created.statusCode).toBe(201);
    const schedule = created.json();
    expect(schedule).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'Sunset run',
      type: 'available',
      repeat: 'custom',
      dates: ['2030-06-05'],
      times: [1930],
      departure: 'varies',
      priceDelta: 4.5,
      start: '2030-06-01',
      end: '2030-06-30',
    });
    const after = (await experience(shop)).schedules;
    expect(after.map((s) => s.id)).toEqual([...before.map((s) => s.id), schedule.id]);
    const read = await as(t.app, null, { method: 'GET', url: url(shop, schedule.id) });
    expect(read.json()).toEqual(schedule);
    expect(await availability(shop, '2030-06-05')).toEqual({
      '2030-06-05': { '900': 10, '1400': 10, '1930': 10 },
    });
  });

  it('prices departures of a schedule with its priceDelta, in quotes and bookings', async () => {
    const shop = await openShop(t.app);
    await post(shop.seller, shop, {
      type: 'available',
      repeat: 'weekly',
      days: [6],
      times: [1800],
      priceDelta: 10,
    });
    // 2030-06-01 is a Saturday: 18:00 costs 25.50 + 10 a seat; 09:00 keeps its price.
    const quote = await as(t.app, customer, {
      method: 'POST',
      url: '/api/orders/prepare',
      payload: {
        items: [item(shop.experienceId, '2030-06-01', 1800, 2), item(shop.experienceId)],
      },
    });
    expect(quote.json().items.map((i: { price: number }) => i.price)).toEqual([35.5, 25.5]);
    expect(quote.json().amount).toBe(96.5);
    const booked = await book(t.app, customer, {
      items: [item(shop.experienceId, '2030-06-01', 1800, 2)],
      amount: 71,
    });
    expect(booked.statusCode).toBe(201);
    expect(booked.json().items[0]).toMatchObject({ price: 35.5, amount: 71 });
  });

  it('refuses a priceDelta that would make a price negative, or has too many decimals', async () => {
    const shop = await openShop(t.app, {
      demographics: [{ label: 'Child', code: 'child', price: 5 }],
    });
    const base = { type: 'available', repeat: 'weekly', days: [1], times: [1000] };
    const negative = expectProblem(
      await post(shop.seller, shop, { ...base, priceDelta: -6 }),
      400,
      'validation_failed',
    );
    expect(negative.errors?.[0]?.name).toMatch(/^schedules\.\d+\.priceDelta$/);
    expectProblem(
      await post(shop.seller, shop, { ...base, priceDelta: 0.001 }),
      400,
      'validation_failed',
    );
    expect((await post(shop.seller, shop, { ...base, priceDelta: -5 })).statusCode).toBe(201);
  });

  it('closes days with a blackout schedule (unavailable by its newer name)', async () => {
    const shop = await openShop(t.app);
    const blackout = await post(shop.seller, shop, {
      type: 'blackout',
      repeat: 'custom',
      dates: ['2030-06-10'],
    });
    expect(blackout.json().type).toBe('blackout');
    expect(await availability(shop, '2030-06-10', '2030-06-11')).toEqual({
      '2030-06-10': {},
      '2030-06-11': { '900': 10, '1400': 10 },
    });
    expectProblem(
      await book(t.app, customer, { items: [item(shop.experienceId, '2030-06-10')] }),
      409,
      'not_scheduled',
    );
  });

  it('adds one schedule for a retried request with the same Idempotency-Key', async () => {
    const shop = await openShop(t.app);
    const body = { type: 'available', repeat: 'weekly', days: [4], times: [1100] };
    const send = () =>
      as(t.app, shop.seller, {
        method: 'POST',
        url: url(shop),
        payload: body,
        headers: { 'idempotency-key': 'schedule-retry-1' },
      });
    const [first, retry] = [await send(), await send()];
    expect(first.statusCode).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect((await experience(shop)).schedules).toHaveLength(2);
  });

  it('applies every one of many parallel additions (none lost)', async () => {
    const shop = await openShop(t.app);
    const times = Array.from({ length: 12 }, (_, i) => 1000 + i);
    const created = await Promise.all(
      times.map((time) =>
        post(shop.seller, shop, { type: 'available', repeat: 'weekly', days: [2], times: [time] }),
      ),
    );
    expect(created.map((r) => r.statusCode)).toEqual(times.map(() => 201));
    const ids = (await experience(shop)).schedules.map((s) => s.id);
    for (const r of created) expect(ids).toContain(r.json().id);
    expect(ids).toHaveLength(13);
  });

  it('adds none past the 50 a whole body may carry (409 too_many_schedules)', async () => {
    const shop = await openShop(t.app);
    for (let i = 1; i < 50; i++) {
      const added = await post(shop.seller, shop, {
        type: 'available',
        repeat: 'weekly',
        days: [i % 7],
        times: [600 + i],
      });
      expect(added.statusCode, added.body).toBe(201);
    }
    expect((await experience(shop)).schedules).toHaveLength(50);
    const over = { type: 'available', repeat: 'weekly', days: [1], times: [700] };
    expectProblem(await post(shop.seller, shop, over), 409, 'too_many_schedules');
    expect((await experience(shop)).schedules).toHaveLength(50);
  });
});

describe('PUT and DELETE /api/experiences/{id}/schedules/{scheduleId}', () => {
  it('replaces a schedule in place under its id', async () => {
    const shop = await openShop(t.app);
    const first = await post(shop.seller, shop, {
      type: 'available',
      repeat: 'weekly',
      days: [1],
      times: [1100],
    });
    await post(shop.seller, shop, {
      type: 'available',
      repeat: 'weekly',
      days: [2],
      times: [1200],
    });
    const ids = (await experience(shop)).schedules.map((s) => s.id);
    const replaced = await put(shop.seller, shop, first.json().id, {
      name: 'Mondays late',
      type: 'available',
      repeat: 'weekly',
      days: [1],
      times: [1600],
    });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toEqual({
      id: first.json().id,
      name: 'Mondays late',
      type: 'available',
      repeat: 'weekly',
      days: [1],
      times: [1600],
    });
    expect((await experience(shop)).schedules.map((s) => s.id)).toEqual(ids);
    // 2030-06-03 is a Monday.
    expect(await availability(shop, '2030-06-03')).toEqual({
      '2030-06-03': { '900': 10, '1400': 10, '1600': 10 },
    });
  });

  it('keeps booked orders when their departure leaves the schedules; the docs say so', async () => {
    const shop = await openShop(t.app);
    const only = (await experience(shop)).schedules[0]!.id;
    const booked = await book(t.app, customer, {
      items: [item(shop.experienceId, '2030-06-04', 1400, 2)],
    });
    const order = booked.json();
    const replaced = await put(shop.seller, shop, only, {
      type: 'available',
      repeat: 'weekly',
      days: [0, 1, 2, 3, 4, 5, 6],
      times: [900],
    });
    expect(replaced.statusCode).toBe(200);
    const read = await as(t.app, customer, { method: 'GET', url: `/api/orders/${order.id}` });
    expect(read.json()).toMatchObject({ status: 'confirmed', items: [{ status: 200 }] });
    const event = await as(t.app, shop.seller, {
      method: 'GET',
      url: `/api/events/${order.items[0].event.id}`,
    });
    expect(event.json()).toMatchObject({ quantity: { reserved: 2 } });
    // New bookings follow the schedules; the order can still be canceled, its seats freed.
    expectProblem(
      await book(t.app, customer, { items: [item(shop.experienceId, '2030-06-04', 1400)] }),
      409,
      'not_scheduled',
    );
    expect((await remove(shop.seller, shop, only)).statusCode).toBe(204);
    expect((await experience(shop)).schedules).toEqual([]);
    const canceled = await as(t.app, customer, {
      method: 'POST',
      url: `/api/orders/${order.id}/cancel`,
    });
    expect(canceled.json().status).toBe('canceled');
  });

  it('answers 404 for an unknown schedule, and changes nothing', async () => {
    const shop = await openShop(t.app);
    const before = await experience(shop);
    const unknown = 'f'.repeat(24);
    const body = { type: 'available', repeat: 'weekly', days: [1], times: [900] };
    expectProblem(await put(shop.seller, shop, unknown, body), 404, 'not_found');
    expectProblem(await remove(shop.seller, shop, unknown), 404, 'not_found');
    expectProblem(
      await as(t.app, null, { method: 'GET', url: url(shop, unknown) }),
      404,
      'not_found',
    );
    expect(await experience(shop)).toEqual(before);
  });
});

describe('who may change schedules, and bad bodies', () => {
  it('lets the seller and its curators change them; no one else, and refusals change nothing', async () => {
    const shop = await openShop(t.app);
    const id = (await experience(shop)).schedules[0]!.id;
    const body = { type: 'available', repeat: 'weekly', days: [3], times: [1000] };
    const curator = await delegate(t.app, shop.seller, ['ROLE_CURATOR'], 'Curator');
    expect((await post(curator, shop, body)).statusCode).toBe(201);
    const before = await experience(shop);
    const desk = await delegate(t.app, shop.seller, ['ROLE_RESERVATION'], 'Desk');
    expectProblem(await post(desk, shop, body), 403, 'forbidden');
    const other = await openShop(t.app);
    expectProblem(await post(other.seller, shop, body), 403, 'forbidden');
    expectProblem(await put(other.seller, shop, id, body), 403, 'forbidden');
    expectProblem(await remove(other.seller, shop, id), 403, 'forbidden');
    expectProblem(await post(customer, shop, body), 403, 'forbidden');
    expectProblem(await post(null, shop, body), 401, 'authentication_required');
    expect(await experience(shop)).toEqual(before);
  });

  it('hides the schedules of a hidden experience from everyone but its staff', async () => {
    const shop = await openShop(t.app, { visible: false });
    const id = (await experience(shop)).schedules[0]!.id;
    for (const account of [null, customer, (await openShop(t.app)).seller]) {
      expectProblem(
        await as(t.app, account, { method: 'GET', url: url(shop, id) }),
        404,
        'not_found',
      );
    }
    expectProblem(
      await post(customer, shop, { type: 'available', repeat: 'weekly', days: [1], times: [1] }),
      404,
      'not_found',
    );
  });

  it('refuses malformed schedules with a 400 naming the field, and changes nothing', async () => {
    const shop = await openShop(t.app);
    const id = (await experience(shop)).schedules[0]!.id;
    const before = await experience(shop);
    const bad: unknown[] = [
      {},
      { type: 'sometimes', repeat: 'weekly', days: [1], times: [900] },
      { type: 'available', repeat: 'weekly', times: [900] },
      { type: 'available', repeat: 'weekly', days: [1], times: [960] },
      { type: 'available', repeat: 'custom', dates: ['2030-02-30'], times: [900] },
      { type: 'available', repeat: 'weekly', days: [1], times: [900], start: '2030-06-01T25:00' },
      { type: 'available', repeat: 'weekly', days: [1], times: [900], start: 'June' },
      { type: 'available', repeat: 'weekly', days: [1], times: [900], departure: 'sometimes' },
      { type: 'available', repeat: 'weekly', days: [1], times: [900], priceDelta: '5' },
      { type: 'available', repeat: 'weekly', days: [1], times: [900], id: id },
      {
        type: 'available',
        repeat: 'weekly',
        days: [1],
        times: [900],
        start: '2030-06-02',
        end: '2030-06-01T10:00:00Z',
      },
      [],
      '"schedule"',
    ];
    for (const payload of bad) {
      expectProblem(await post(shop.seller, shop, payload), 400, 'validation_failed');
      expectProblem(await put(shop.seller, shop, id, payload), 400, 'validation_failed');
    }
    expectProblem(
      await as(t.app, shop.seller, { method: 'DELETE', url: url(shop, 'nope') }),
      400,
      'validation_failed',
    );
    expect(await experience(shop)).toEqual(before);
  });

  it('refuses two schedules with one id when the whole experience is written', async () => {
    const shop = await openShop(t.app);
    const [first] = (await experience(shop)).schedules as Record<string, unknown>[];
    const response = await as(t.app, shop.seller, {
      method: 'PUT',
      url: `/api/experiences/${shop.experienceId}`,
      payload: { schedules: [first, { ...first, times: [1000] }] },
    });
    expect(expectProblem(response, 400, 'validation_failed').errors?.[0]?.name).toBe(
      'schedules.1.id',
    );
  });
});
