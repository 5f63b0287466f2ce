/**
 * `POST /api/events` makes only events availability and bookings can name by local date
 * and HHMM: a start with seconds, or the first occurrence of a fall-back night's time, is
 * 400 naming `start` (such an event was listed with the outing's seats, not its own, and a
 * booking of it answered 409 not_scheduled). The second occurrence is listed and booked.
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
import { book, item } from '../helpers/booking.js';
import { createExperience } from '../helpers/octo.js';

let t: TestApp;
let seller: Account;
let experienceId: string;

beforeAll(async () => {
  t = await createTestApp();
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  // No schedule: its only departures are the events opened by hand.
  experienceId = (
    await createExperience(t.app, seller, {
      timezone: 'Europe/Paris',
      duration: 30,
      schedules: [],
      group: { outingMax: 10, orderMax: 10 },
    })
  ).id;
});
afterAll(async () => t.close());

const upsert = (start: string) =>
  as(t.app, seller, {
    method: 'POST',
    url: '/api/events',
    payload: { experience: { id: experienceId }, start, max: 3 },
  });

const eventsOf = async () =>
  (
    await t.database.db
      .selectFrom('events')
      .select('starts_at')
      .where('experience_id', '=', experienceId)
      .execute()
  ).map((e) => e.starts_at.toISOString());

describe('POST /api/events: a start bookings can name', () => {
  it.each([
    '2030-10-27T02:30:00+02:00', // the first 02:30 of the fall-back night
    '2030-10-27T00:30:00Z', // the same instant
    '2030-07-01T09:00:30+02:00', // seconds
    '2030-07-01T09:00:30', // seconds, local
    '2030-07-01T09:00:00.500Z', // a fraction of a second
  ])('refuses %s with 400 naming start, making nothing', async (start) => {
    const body = expectProblem(await upsert(start), 400, 'validation_failed');
    expect(body.errors).toEqual([expect.objectContaining({ in: 'body', name: 'start' })]);
    expect(await eventsOf()).toEqual([]);
  });

  it('lists and books the second 02:30 opened by hand with its own seats', async () => {
    const made = await upsert('2030-10-27T02:30:00+01:00');
    expect(made.statusCode, made.body).toBe(201);
    const opened = await as(t.app, seller, {
      method: 'PATCH',
      url: `/api/events/${made.json().id}`,
      payload: { manual: true },
    });
    expect(opened.statusCode, opened.body).toBe(200);
    const shown = await t.app.inject({
      method: 'GET',
      url: `/api/experiences/${experienceId}/availability?start=2030-10-27&end=2030-10-27`,
    });
    expect(shown.json()).toEqual({ '2030-10-27': { 230: 3 } });
    const customer = await signUp(t.app);
    const booked = await book(t.app, customer, {
      items: [item(experienceId, '2030-10-27', 230, 3)],
    });
    expect(booked.statusCode, booked.body).toBe(201);
    expect(await eventsOf()).toEqual(['2030-10-27T01:30:00.000Z']);
  });

  it('does not open an event made at such a start before the rule (400 naming manual)', async () => {
    const made = await upsert('2030-07-02T09:00:00+02:00');
    expect(made.statusCode, made.body).toBe(201);
    const id: string = made.json().id;
    // As a row from before the rule: 30 seconds past the minute.
    await t.database.db
      .updateTable('events')
      .set({
        starts_at: new Date('2030-07-02T07:00:30Z'),
        ends_at: new Date('2030-07-02T07:30:30Z'),
      })
      .where('id', '=', id)
      .execute();
    const open = (manual: boolean) =>
      as(t.app, seller, { method: 'PATCH', url: `/api/events/${id}`, payload: { manual } });
    const body = expectProblem(await open(true), 400, 'validation_failed');
    expect(body.errors).toEqual([expect.objectContaining({ in: 'body', name: 'manual' })]);
    const row = await t.database.db
      .selectFrom('events')
      .select('manual')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.manual).toBeNull();
    // Closing it stays allowed.
    expect((await open(false)).statusCode).toBe(200);
  });
});
