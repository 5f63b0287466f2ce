/**
 * `GET /api/availability?experience=a,b&start&end`: several experiences' open seats in one
 * call, each exactly as its own availability endpoint answers; what the caller may not see
 * is left out; every bad input is a 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, expectProblem, signUp, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { createExperience, daily } from '../helpers/octo.js';

let t: TestApp;
let kayak: Shop;
let hiddenId: string;
let cruise: Shop;
beforeAll(async () => {
  t = await createTestApp();
  kayak = await openShop(t.app);
  const hidden = await as(t.app, kayak.seller, {
    method: 'POST',
    url: '/api/experiences',
    payload: {
      name: 'Private Tour',
      price: 100,
      priceType: 'outing',
      currency: 'EUR',
      duration: 60,
      visible: false,
      schedules: [
        { type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: [1000] },
      ],
    },
  });
  hiddenId = hidden.json().id;
  cruise = await openShop(t.app, { name: 'Harbour Cruise', group: { outingMax: 40 } });
  const customer = await signUp(t.app);
  expect(
    (await book(t.app, customer, { items: [item(kayak.experienceId, '2030-06-02', 900, 3)] }))
      .statusCode,
  ).toBe(201);
});
afterAll(async () => t.close());

const many = (account: Parameters<typeof as>[1], query: string) =>
  as(t.app, account, { method: 'GET', url: `/api/availability?${query}` });
const one = async (id: string) =>
  (
    await as(t.app, kayak.seller, {
      method: 'GET',
      url: `/api/experiences/${id}/availability?start=2030-06-01&end=2030-06-03`,
    })
  ).json();

describe('GET /api/availability', () => {
  it('answers each experience as its own endpoint does, keyed by id in the order asked', async () => {
    const response = await many(
      null,
      `experience=${cruise.experienceId},${kayak.experienceId}&start=2030-06-01&end=2030-06-03`,
    );
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body)).toEqual([cruise.experienceId, kayak.experienceId]);
    expect(body[kayak.experienceId]).toEqual(await one(kayak.experienceId));
    expect(body[cruise.experienceId]).toEqual(await one(cruise.experienceId));
    expect(body[kayak.experienceId]['2030-06-02']).toEqual({ 900: 7, 1400: 10 });
  });

  it("leaves out what the caller may not see; the seller's staff see their hidden ones", async () => {
    const query = `experience=${kayak.experienceId},${hiddenId},${'f'.repeat(24)}&start=2030-06-01&end=2030-06-01`;
    expect(Object.keys((await many(null, query)).json())).toEqual([kayak.experienceId]);
    const staff = (await many(kayak.seller, query)).json();
    expect(Object.keys(staff)).toEqual([kayak.experienceId, hiddenId]);
    expect(staff[hiddenId]).toEqual({ '2030-06-01': { 1000: null } });
  });

  it('refuses bad input with 400', async () => {
    const ids = (n: number) =>
      Array.from({ length: n }, (_, i) => i.toString(16).padStart(24, '0')).join(',');
    for (const query of [
      'start=2030-06-01&end=2030-06-02',
      `experience=${kayak.experienceId}`,
      `experience=nope&start=2030-06-01&end=2030-06-02`,
      `experience=${kayak.experienceId},&start=2030-06-01&end=2030-06-02`,
      `experience=${ids(51)}&start=2030-06-01&end=2030-06-02`,
      `experience=${kayak.experienceId}&start=2030-06-03&end=2030-06-01`,
      `experience=${kayak.experienceId}&start=2030-01-01&end=2030-06-01`,
      `experience=${kayak.experienceId}&start=2030-02-30&end=2030-03-01`,
    ]) {
      expectProblem(await many(null, query), 400, 'validation_failed');
    }
    expect(
      (await many(null, `experience=${ids(50)}&start=2030-06-01&end=2030-06-01`)).json(),
    ).toEqual({});
  });
});

describe('GET /api/availability at its limits', () => {
  it('answers 50 experiences of hourly departures over 62 days (74,400 departures)', async () => {
    const seller = (await openShop(t.app)).seller;
    const hourly = Array.from({ length: 24 }, (_, hour) => hour * 100);
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      const made = await createExperience(t.app, seller, {
        name: `Hourly ${i}`,
        duration: 30,
        timezone: 'UTC',
        group: { outingMax: 8 },
        schedules: daily(hourly),
      });
      ids.push(made.id);
    }
    // One parameter per departure went past PostgreSQL's 65,535: a 5xx after seconds.
    const response = await many(
      seller,
      `experience=${ids.join(',')}&start=2030-01-01&end=2030-03-03`,
    );
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    const body = response.json();
    expect(Object.keys(body)).toEqual(ids);
    const first = body[ids[0]!] as Record<string, Record<string, number>>;
    expect(Object.keys(first)).toHaveLength(62);
    expect(Object.values(first['2030-02-15']!)).toEqual(Array(24).fill(8));
  });

  it('refuses an experience of more than 96 departures a day, and a window of more than 100,000 departures', async () => {
    const seller = (await openShop(t.app)).seller;
    // Every quarter of an hour: 96 times a day, in two schedules.
    const quarters = Array.from({ length: 96 }, (_, i) => Math.floor(i / 4) * 100 + (i % 4) * 15);
    const split = [quarters.slice(0, 48), quarters.slice(48)];
    const schedules = (extra: number[] = []) => [
      ...daily(split[0]!),
      ...daily([...split[1]!, ...extra]),
    ];
    const tooDense = await as(t.app, seller, {
      method: 'POST',
      url: '/api/experiences',
      payload: {
        name: 'Every minute',
        price: 10,
        priceType: 'person',
        currency: 'EUR',
        duration: 10,
        timezone: 'UTC',
        schedules: schedules([1]),
      },
    });
    const refused = expectProblem(tooDense, 400, 'validation_failed');
    expect(refused.errors).toEqual([
      expect.objectContaining({ name: 'schedules', detail: expect.stringContaining('96') }),
    ]);
    const ids: string[] = [];
    for (let i = 0; i < 17; i++) {
      const made = await createExperience(t.app, seller, {
        name: `Quarterly ${i}`,
        duration: 10,
        timezone: 'UTC',
        group: { outingMax: 8 },
        schedules: schedules(),
      });
      ids.push(made.id);
    }
    // 17 x 62 days x 96 = 101,184 departures: refused before any is computed.
    const wide = await many(null, `experience=${ids.join(',')}&start=2030-01-01&end=2030-03-03`);
    const tooMany = expectProblem(wide, 400, 'validation_failed');
    expect(tooMany.errors).toEqual([expect.objectContaining({ in: 'query', name: 'end' })]);
    // 16 of them: 95,232.
    const fits = await many(
      null,
      `experience=${ids.slice(1).join(',')}&start=2030-01-01&end=2030-03-03`,
    );
    expect(fits.statusCode).toBe(200);
  });
});
