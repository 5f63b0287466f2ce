/**
 * A refusal never echoes a huge input back: the path to a bad value in a body (each key
 * and the whole clipped), an unknown `expand=` name, a refused Content-Type and a 404's path
 * are shown clipped, so a problem body stays small whatever was sent (a 900 KB key came
 * back twice, as 1.8 MB).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, expectProblem, type TestApp } from '../helpers/app.js';
import { openShop, type Shop } from '../helpers/booking.js';

let t: TestApp;
let shop: Shop;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
});
afterAll(async () => t.close());

const JSON_TYPE = { 'content-type': 'application/json' };
const SMALL = 2_048;

describe('problem bodies stay small', () => {
  it('names a NUL under a huge key, anonymously on no route, clipped', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/nowhere',
      payload: `{"${'k'.repeat(900_000)}":"\\u0000"}`,
      headers: JSON_TYPE,
    });
    expect(response.statusCode).toBe(400);
    expect(response.body.length).toBeLessThan(SMALL);
    const problem = expectProblem(response, 400, 'validation_failed');
    expect(problem.errors![0]!.name).toBe(`${'k'.repeat(60)}…`);
  });

  it('names a NUL below a huge key of a seller’s write, each key clipped', async () => {
    const response = await as(t.app, shop.seller, {
      method: 'POST',
      url: '/api/experiences',
      payload: `{"${'k'.repeat(500_000)}":{"a":"\\u0000"}}`,
      headers: JSON_TYPE,
    });
    expect(response.body.length).toBeLessThan(SMALL);
    const problem = expectProblem(response, 400, 'validation_failed');
    expect(problem.errors![0]!.name).toBe(`${'k'.repeat(60)}….a`);
  });

  it('clips the whole path of a bad value nested under many long keys', async () => {
    const key = 'k'.repeat(80);
    const nested = Array.from({ length: 10 }).reduce<unknown>(
      (inner) => ({ [key]: inner }),
      '\u0000',
    );
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/nowhere',
      payload: JSON.stringify(nested),
      headers: JSON_TYPE,
    });
    expect(response.body.length).toBeLessThan(SMALL);
    const name = expectProblem(response, 400, 'validation_failed').errors![0]!.name;
    expect(name.length).toBeLessThanOrEqual(201);
  });

  it('clips an unknown expand= name', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/experiences?expand=${'x'.repeat(10_000)}`,
    });
    expect(response.body.length).toBeLessThan(SMALL);
    const problem = expectProblem(response, 400, 'invalid_parameter');
    expect(problem.detail).toContain(`"${'x'.repeat(60)}…"`);
  });

  it('clips a refused Content-Type', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      payload: '{}',
      headers: { 'content-type': `text/${'x'.repeat(10_000)}` },
    });
    expect(response.body.length).toBeLessThan(SMALL);
    expectProblem(response, 415, 'unsupported_media_type');
  });

  it('clips the path of a 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/${'x/'.repeat(5_000)}` });
    expect(response.body.length).toBeLessThan(SMALL);
    const problem = expectProblem(response, 404, 'route_not_found');
    expect(problem.detail).toContain('No endpoint GET /api/x/x/');
  });
});
