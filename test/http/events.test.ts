/** Events through HTTP: the upsert on experience and start, local offsets, capacity rules. */
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

let t: TestApp;
let shop: Shop;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
});
afterAll(async () => t.close());

const upsert = (
  account: Account,
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
) => as(t.app, account, { method: 'POST', url: '/api/events', payload, headers });

describe('POST /api/events', () => {
  it('creates an event, then updates the same one for the same start (201 both times)', async () => {
    const created = await upsert(shop.seller, {
      experience: { id: shop.experienceId },
      start: '2030-05-10T09:00:00+02:00',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      object: 'event',
      experience: { id: shop.experienceId },
      seller: { id: shop.seller.id },
      title: 'Harbour Kayak',
      start: '2030-05-10T09:00:00+02:00',
      end: '2030-05-10T10:30:00+02:00',
      max: 10,
      quantity: { reserved: 0 },
      open: 10,
      guides: [],
    });
    // The same instant written in UTC, or as local time without an offset, is the same event.
    for (const start of ['2030-05-10T07:00:00Z', '2030-05-10T09:00']) {
      const again = await upsert(shop.seller, {
        experience: { id: shop.experienceId },
        start,
        max: 6,
      });
      expect(again.statusCode).toBe(201);
      expect(again.json()).toMatchObject({ id: created.json().id, max: 6, open: 6 });
    }
    // Without max, an update keeps the capacity.
    const kept = await upsert(shop.seller, {
      experience: { id: shop.experienceId },
      start: '2030-05-10T09:00',
    });
    expect(kept.json().max).toBe(6);
    const unlimited = await upsert(shop.seller, {
      experience: { id: shop.experienceId },
      start: '2030-05-10T09:00',
      max: null,
    });
    expect(unlimited.json()).toMatchObject({ max: null, open: null });
  });

  it('keeps local time right across daylight-saving changes', async () => {
    const winter = await upsert(shop.seller, {
      experience: { id: shop.experienceId },
      start: '2030-01-15T09:00',
    });
    const summer = await upsert(shop.seller, {
      experience: { id: shop.experienceId },
      start: '2030-07-15T09:00',
    });
    expect(winter.json().start).toBe('2030-01-15T09:00:00+01:00');
    expect(summer.json().start).toBe('2030-07-15T09:00:00+02:00');
    // Crossing the change: 01:30 + 90 minutes on 2030-03-31 ends at 04:00 summer time.
    const across = await upsert(shop.seller, {
      experience: { id: shop.experienceId },
      start: '2030-03-31T01:30',
    });
    expect(across.json()).toMatchObject({
      start: '2030-03-31T01:30:00+01:00',
      end: '2030-03-31T04:00:00+02:00',
    });
    // A local time that does not exist that night is refused.
    const skipped = expectProblem(
      await upsert(shop.seller, {
        experience: { id: shop.experienceId },
        start: '2030-03-31T02:30',
      }),
      400,
      'validation_failed',
    );
    expect(skipped.errors?.[0]).toMatchObject({ name: 'start' });
  });

  it('refuses a max below the seats already booked, and keeps the event as it was', async () => {
    const customer = await signUp(t.app);
    const order = (
      await book(t.app, customer, { items: [item(shop.experienceId, '2030-05-11', 900, 3)] })
    ).json();
    const body = expectProblem(
      await upsert(shop.seller, {
        experience: { id: shop.experienceId },
        start: '2030-05-11T09:00',
        max: 2,
      }),
      409,
      'capacity_below_reserved',
    );
    expect(body.errors?.[0]).toMatchObject({ name: 'max' });
    const event = await as(t.app, shop.seller, {
      method: 'GET',
      url: `/api/events/${order.items[0].event.id}`,
    });
    expect(event.json()).toMatchObject({ max: 10, quantity: { reserved: 3 }, open: 7 });
    expect(
      (
        await upsert(shop.seller, {
          experience: { id: shop.experienceId },
          start: '2030-05-11T09:00',
          max: 3,
        })
      ).json().open,
    ).toBe(0);
  });

  it('is for the seller’s staff only', async () => {
    const stranger = await signUp(t.app);
    expectProblem(
      await upsert(stranger, { experience: { id: shop.experienceId }, start: '2030-05-12T09:00' }),
      403,
      'forbidden',
    );
    const hidden = await openShop(t.app, { visible: false });
    expectProblem(
      await upsert(stranger, {
        experience: { id: hidden.experienceId },
        start: '2030-05-12T09:00',
      }),
      404,
      'not_found',
    );
    expectProblem(
      await t.app.inject({
        method: 'POST',
        url: '/api/events',
        payload: { experience: { id: shop.experienceId }, start: '2030-05-12T09:00' },
      }),
      401,
      'authentication_required',
    );
  });

  it('refuses bad input with 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ start: '2030-05-12T09:00' }, 'experience'],
      [{ experience: { id: shop.experienceId } }, 'start'],
      [{ experience: { id: shop.experienceId }, start: 'tomorrow at nine' }, 'start'],
      [{ experience: { id: shop.experienceId }, start: '2030-02-30T09:00' }, 'start'],
      [{ experience: { id: shop.experienceId }, start: '2030-05-12T09:00', max: -1 }, 'max'],
      [{ experience: { id: shop.experienceId }, start: '2030-05-12T09:00', max: 2.5 }, 'max'],
      [
        { experience: { id: shop.experienceId }, start: '2030-05-12T09:00', colour: 'red' },
        'colour',
      ],
      [{ experience: { id: shop.experienceId }, start: '2030-05-12T09:00', guides: 'x' }, 'guides'],
      [
        { experience: { id: shop.experienceId }, start: '2030-05-12T09:00', guides: ['nope'] },
        'guides.0',
      ],
    ];
    for (const [payload, field] of cases) {
      const body = expectProblem(await upsert(shop.seller, payload), 400, 'validation_failed');
      expect(body.errors?.[0]?.name, JSON.stringify(payload)).toBe(field);
    }
    expectProblem(
      await upsert(shop.seller, {
        experience: { id: '0123456789abcdef01234567' },
        start: '2030-05-12T09:00',
      }),
      404,
      'not_found',
    );
  });

  it('honours Idempotency-Key', async () => {
    const payload = { experience: { id: shop.experienceId }, start: '2030-05-13T09:00', max: 5 };
    const first = await upsert(shop.seller, payload, { 'idempotency-key': 'event-1' });
    const again = await upsert(shop.seller, payload, { 'idempotency-key': 'event-1' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expectProblem(
      await upsert(shop.seller, { ...payload, max: 6 }, { 'idempotency-key': 'event-1' }),
      422,
      'idempotency_key_reused',
    );
  });
});

describe('GET /api/events/{id}', () => {
  it('answers 404 to callers who do not work for the seller', async () => {
    const event = (
      await upsert(shop.seller, {
        experience: { id: shop.experienceId },
        start: '2030-05-14T09:00',
      })
    ).json();
    const stranger = await signUp(t.app);
    expectProblem(
      await as(t.app, stranger, { method: 'GET', url: `/api/events/${event.id}` }),
      404,
      'not_found',
    );
    expect(
      (await as(t.app, shop.seller, { method: 'GET', url: `/api/events/${event.id}` })).json(),
    ).toEqual(event);
  });
});

describe('GET /api/events?experience=', () => {
  it("lists an experience's departures to its seller, and nothing to another seller", async () => {
    const other = await openShop(t.app);
    const starts = ['2031-03-01T09:00:00Z', '2031-03-02T09:00:00Z', '2031-04-01T09:00:00Z'];
    for (const start of starts)
      expect(
        (await upsert(shop.seller, { experience: { id: shop.experienceId }, start })).statusCode,
      ).toBe(201);
    const list = (who: Account, experience: string) =>
      as(t.app, who, {
        method: 'GET',
        url: `/api/events?experience=${experience}&start[range]=2031-03-01T00:00:00Z,2031-03-31T00:00:00Z&sort=start`,
      });
    // Asked more than five times: PostgreSQL then weighs a generic plan for the statement.
    for (let round = 0; round < 6; round += 1) {
      const own = await list(shop.seller, shop.experienceId);
      expect(own.statusCode).toBe(200);
      expect(own.json().data.map((e: { start: string }) => Date.parse(e.start))).toEqual(
        starts.slice(0, 2).map(Date.parse),
      );
      const foreign = await list(other.seller, shop.experienceId);
      expect(foreign.statusCode).toBe(200);
      expect(foreign.json().data).toEqual([]);
      expect(foreign.json().data).toEqual((await list(other.seller, 'f'.repeat(24))).json().data);
    }
  });
});
