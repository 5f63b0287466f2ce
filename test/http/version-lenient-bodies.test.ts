/**
 * Before v2026-11-25 (Strict Bodies) bodies are read as Xola reads them: numbers sent as
 * numeric strings are numbers, for fields that may also be null (an event's `max`, an
 * experience's group limits and guest-type prices) as for any other; and a field no shape of
 * a value knows is ignored and named in `X-Ignored-Fields`, also where a value may take one
 * of several object shapes (the entries of `POST /api/events` `guides`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, expectProblem, type TestApp } from '../helpers/app.js';
import { openShop, type Shop } from '../helpers/booking.js';
import { createGuide, guideIdsOf, type Guide } from '../helpers/guides.js';

const LENIENT = { 'x-api-version': '2018-06-26' };
const STRICT = { 'x-api-version': '2026-11-25' };

let t: TestApp;
let shop: Shop;
let guide: Guide;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
  guide = await createGuide(t.app, shop.seller, shop.seller.id);
});
afterAll(async () => t.close());

const upsert = (fields: Record<string, unknown>, headers = LENIENT) =>
  as(t.app, shop.seller, {
    method: 'POST',
    url: '/api/events',
    payload: { experience: { id: shop.experienceId }, ...fields },
    headers,
  });

describe('numeric strings for fields that may be null', () => {
  it('reads an event max sent as a string (POST and PATCH), and still takes null', async () => {
    const created = await upsert({ start: '2030-08-01T09:00', max: '12' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().max).toBe(12);
    const id = created.json<{ id: string }>().id;
    const patch = (max: unknown, headers = LENIENT) =>
      as(t.app, shop.seller, {
        method: 'PATCH',
        url: `/api/events/${id}`,
        payload: { max },
        headers,
      });
    const changed = await patch('20');
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().max).toBe(20);
    const unlimited = await patch(null);
    expect(unlimited.statusCode, unlimited.body).toBe(200);
    expect(unlimited.json().max).toBeNull();
    expectProblem(await patch('20', STRICT), 400, 'validation_failed');
    expectProblem(await patch('twenty'), 400, 'validation_failed');
  });

  it('reads an experience’s group limits and guest-type prices sent as strings', async () => {
    const response = await as(t.app, shop.seller, {
      method: 'POST',
      url: '/api/experiences',
      payload: {
        name: 'Strings',
        price: '25.5',
        priceType: 'person',
        currency: 'EUR',
        duration: 60,
        timezone: 'Europe/Paris',
        group: { orderMin: '1', orderMax: '4', outingMax: '20' },
        demographics: [{ code: 'child', label: 'Child', price: '12.5' }],
      },
      headers: LENIENT,
    });
    expect(response.statusCode, response.body).toBe(201);
    const experience = response.json();
    expect(experience.group).toEqual({ orderMin: 1, orderMax: 4, outingMax: 20 });
    expect(experience.demographics[0].price).toBe(12.5);
  });
});

describe('unknown fields where a value has several object shapes', () => {
  it('ignores and names a field neither guide shape knows', async () => {
    const response = await upsert({
      start: '2030-08-02T09:00',
      guides: [
        { id: guide.id, name: 'Gina' },
        { guide: { id: guide.id }, status: 'confirmed', note: 'x' },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers['x-ignored-fields']).toBe('guides.0.name, guides.1.note');
    expect(
      guideIdsOf(
        (
          await as(t.app, shop.seller, {
            method: 'GET',
            url: `/api/events/${response.json<{ id: string }>().id}`,
          })
        ).json(),
      ),
    ).toEqual([guide.id]);
  });

  it('leaves an entry that fits no shape, or both, to validation', async () => {
    for (const entry of [{ name: 'Gina' }, { id: guide.id, guide: { id: guide.id } }]) {
      expectProblem(
        await upsert({ start: '2030-08-03T09:00', guides: [entry] }),
        400,
        'validation_failed',
      );
    }
  });

  it('refuses the unknown field on the strict version', async () => {
    expectProblem(
      await upsert({ start: '2030-08-04T09:00', guides: [{ id: guide.id, name: 'Gina' }] }, STRICT),
      400,
      'validation_failed',
    );
  });
});
