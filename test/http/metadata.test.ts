import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  as,
  createAdmin,
  createTestApp,
  expectProblem,
  signUp,
  type Account,
  type TestApp,
} from '../helpers/app.js';

let t: TestApp;
let ann: Account;
let bob: Account;
beforeAll(async () => {
  t = await createTestApp();
  bob = await signUp(t.app);
});
beforeEach(async () => {
  ann = await signUp(t.app);
});
afterAll(async () => t.close());

const merge = (account: Account, userId: string, payload: unknown) =>
  as(t.app, account, {
    method: 'POST',
    url: `/api/users/${userId}/meta`,
    payload: payload as object,
  });
const remove = (account: Account, userId: string, property: string) =>
  as(t.app, account, { method: 'DELETE', url: `/api/users/${userId}/meta/${property}` });
const stored = async (id: string) =>
  (
    await t.database.db
      .selectFrom('users')
      .select('metadata')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).metadata;

describe('POST /api/users/{id}/meta', () => {
  it('merges one or more pairs and returns the whole metadata', async () => {
    const first = await merge(ann, ann.id, { 'acme/rocket/crm_id': 'C-1' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ 'acme/rocket/crm_id': 'C-1' });
    const second = await merge(ann, ann.id, {
      'acme/rocket/tier': 'gold',
      'acme/rocket/crm_id': 'C-2',
      'acme/rocket/profile': { vip: true, visits: 3 },
      'acme/rocket/none': null,
    });
    expect(second.json()).toEqual({
      'acme/rocket/crm_id': 'C-2',
      'acme/rocket/tier': 'gold',
      'acme/rocket/profile': { vip: true, visits: 3 },
      'acme/rocket/none': null,
    });
    const user = await as(t.app, ann, { method: 'GET', url: `/api/users/${ann.id}?private=true` });
    expect(user.json().metadata).toEqual(second.json());
  });

  it('lets an admin write another user’s metadata, and nobody else', async () => {
    const admin = await createAdmin(t);
    expect((await merge(admin, ann.id, { 'x/y/z': 1 })).statusCode).toBe(200);
    expectProblem(await merge(bob, ann.id, { 'x/y/z': 2 }), 403, 'forbidden');
    expect(await stored(ann.id)).toEqual({ 'x/y/z': 1 });
  });

  const bad: [string, Record<string, unknown>, string][] = [
    ['a key with a period', { 'acme.crm': 1 }, 'metadata_invalid'],
    ['an empty key', { '': 1 }, 'metadata_invalid'],
    ['a key over 255 characters', { ['k'.repeat(256)]: 1 }, 'metadata_invalid'],
    ['an array value', { 'acme/list': [1, 2] }, 'metadata_invalid'],
    [
      'too many keys in one request',
      Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k/${i}`, i])),
      'validation_failed',
    ],
    ['an empty object', {}, 'validation_failed'],
    ['too large a payload', { 'acme/blob': 'x'.repeat(17 * 1024) }, 'metadata_limit_exceeded'],
  ];
  it.each(bad)('answers 400 for %s and changes nothing', async (_label, payload, code) => {
    await merge(ann, ann.id, { 'acme/keep': 'me' });
    expectProblem(await merge(ann, ann.id, { ...payload }), 400, code);
    expect(await stored(ann.id)).toEqual({ 'acme/keep': 'me' });
  });

  it('rejects a valid pair sent together with an invalid one, keeping neither', async () => {
    const response = await merge(ann, ann.id, { 'acme/good': 1, 'acme.bad': 2 });
    const body = expectProblem(response, 400, 'metadata_invalid');
    expect(body.errors).toEqual([
      { in: 'body', name: 'acme.bad', detail: expect.stringContaining("'.'") },
    ]);
    expect(await stored(ann.id)).toEqual({});
  });

  it('refuses a number JSON cannot hold (1e400), at any depth, rather than store null', async () => {
    for (const body of ['{"acme/big": 1e400}', '{"acme/deep": {"a": [1, -1e999]}}']) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/users/${ann.id}/meta`,
        headers: { 'x-api-key': ann.apiKey, 'content-type': 'application/json' },
        payload: body,
      });
      const problem = expectProblem(response, 400, 'metadata_invalid');
      expect(problem.errors?.[0]?.detail).toMatch(/finite/);
    }
    expect(await stored(ann.id)).toEqual({});
  });

  it('counts the limit over the merged metadata, not only the request', async () => {
    const fifty = (offset: number) =>
      Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`acme/k${offset + i}`, i]));
    expect((await merge(ann, ann.id, fifty(0))).statusCode).toBe(200);
    expect((await merge(ann, ann.id, fifty(50))).statusCode).toBe(200);
    const over = await merge(ann, ann.id, { 'acme/one-more': 1 });
    expect(expectProblem(over, 400, 'metadata_limit_exceeded').detail).toMatch(/101 keys.*100/);
    // Overwriting an existing key keeps the count and is fine.
    expect((await merge(ann, ann.id, { 'acme/k0': 'new' })).statusCode).toBe(200);
    expect(Object.keys(await stored(ann.id))).toHaveLength(100);
  });

  it('answers 404 for an unknown user (as admin) and 400 for a body that is not an object', async () => {
    const admin = await createAdmin(t);
    expectProblem(await merge(admin, '0123456789abcdef01234567', { 'a/b': 1 }), 404, 'not_found');
    expectProblem(await merge(ann, ann.id, ['a']), 400, 'validation_failed');
    expectProblem(
      await as(t.app, ann, {
        method: 'POST',
        url: `/api/users/${ann.id}/meta`,
        headers: { 'content-type': 'application/json' },
        payload: '"text"',
      }),
      400,
      'validation_failed',
    );
  });
});

describe('DELETE /api/users/{id}/meta/{property}', () => {
  it('removes a key whose name contains slashes, keeping the others', async () => {
    await merge(ann, ann.id, { 'acme/rocket/crm_id': 'C-1', 'acme/rocket/tier': 'gold' });
    const response = await remove(ann, ann.id, 'acme/rocket/crm_id');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ 'acme/rocket/tier': 'gold' });
    expect(await stored(ann.id)).toEqual({ 'acme/rocket/tier': 'gold' });
  });

  it('accepts the key percent-encoded', async () => {
    await merge(ann, ann.id, { 'acme/rocket/crm id': 1 });
    const response = await remove(ann, ann.id, encodeURIComponent('acme/rocket/crm id'));
    expect(response.statusCode).toBe(200);
    expect(await stored(ann.id)).toEqual({});
  });

  it('decodes the key once: a "%" in it is the key\'s own', async () => {
    await merge(ann, ann.id, { 'a%41': 1, aA: 2, 'discount 100%': 3, 'p%2Fq': 4 });
    const first = await remove(ann, ann.id, encodeURIComponent('a%41'));
    expect(first.statusCode, first.body).toBe(200);
    expect(await stored(ann.id)).toEqual({ aA: 2, 'discount 100%': 3, 'p%2Fq': 4 });
    expect((await remove(ann, ann.id, 'discount%20100%25')).statusCode).toBe(200);
    expect((await remove(ann, ann.id, encodeURIComponent('p%2Fq'))).statusCode).toBe(200);
    expect(await stored(ann.id)).toEqual({ aA: 2 });
  });

  it('answers 404 for a missing key and changes nothing', async () => {
    await merge(ann, ann.id, { 'acme/a': 1 });
    expectProblem(await remove(ann, ann.id, 'acme/b'), 404, 'metadata_key_not_found');
    expectProblem(await remove(ann, ann.id, 'acme'), 404, 'metadata_key_not_found');
    expect(await stored(ann.id)).toEqual({ 'acme/a': 1 });
  });

  it('refuses other users and anonymous callers', async () => {
    await merge(ann, ann.id, { 'acme/a': 1 });
    expectProblem(await remove(bob, ann.id, 'acme/a'), 403, 'forbidden');
    expectProblem(
      await t.app.inject({ method: 'DELETE', url: `/api/users/${ann.id}/meta/acme/a` }),
      401,
      'authentication_required',
    );
    expect(await stored(ann.id)).toEqual({ 'acme/a': 1 });
  });

  it('answers 400 for a malformed percent-encoding and 404 without a property', async () => {
    expectProblem(await remove(ann, ann.id, 'acme%E0%A4%A'), 400, 'bad_request');
    // No property at all is no endpoint.
    expectProblem(await remove(ann, ann.id, ''), 404, 'route_not_found');
  });
});
