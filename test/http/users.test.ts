import { createHash, createHmac } from 'node:crypto';
import canonicalizeModule from 'canonicalize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configuredFingerprintKey } from '../../src/security/secret.js';
import {
  as,
  createAdmin,
  createTestApp,
  expectProblem,
  signUp,
  uniqueEmail,
  type Account,
  type TestApp,
} from '../helpers/app.js';

const canonicalize = canonicalizeModule as unknown as (value: unknown) => string;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const post = (payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/users', payload: payload as object });

describe('POST /api/users', () => {
  it('creates an account and returns it with its API key', async () => {
    const email = uniqueEmail();
    const response = await post({ name: 'Ann Guide', email, password: 'long enough' });
    expect(response.statusCode).toBe(201);
    const user = response.json();
    expect(user).toMatchObject({
      object: 'user',
      name: 'Ann Guide',
      email,
      roles: ['ROLE_DEVELOPER'],
    });
    expect(user.id).toMatch(/^[0-9a-f]{24}$/);
    expect(typeof user.apiKey).toBe('string');
    expect(user.apiKey.length).toBeGreaterThanOrEqual(32);
    expect(Date.parse(user.createdAt)).not.toBeNaN();
    expect(user).not.toHaveProperty('password');
    expect(user).not.toHaveProperty('metadata');
    // The key works at once.
    const me = await as(t.app, user, { method: 'GET', url: '/api/users/me' });
    expect(me.json().id).toBe(user.id);
  });

  it('keeps no fingerprint of a sign-up that its stored answer lets anyone crack', async () => {
    const email = uniqueEmail('fingerprint');
    const body = { name: 'Finn', email, password: 'Summer2024!' };
    const signed = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { 'idempotency-key': `fp-${email}` },
      payload: body,
    });
    expect(signed.statusCode).toBe(201);
    const row = await t.database.db
      .selectFrom('idempotency_keys')
      .select('fingerprint')
      .where('key', '=', `fp-${email}`)
      .executeTakeFirstOrThrow();
    // Everything in the body but the password is in the stored answer: an unkeyed hash of
    // the body is a password hash at SHA-256 speed.
    const canonical = `POST /api/users\n${canonicalize(body)}`;
    expect(row.fingerprint).not.toBe(createHash('sha256').update(canonical).digest('base64url'));
    expect(row.fingerprint).toBe(
      createHmac('sha256', configuredFingerprintKey(t.config))
        .update(canonical)
        .digest('base64url'),
    );
    // The same request again is still the same request.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { 'idempotency-key': `fp-${email}` },
      payload: body,
    });
    expect(again.json().id).toBe(signed.json().id);
  });

  it('lets a seller sign up as a seller', async () => {
    const response = await post({
      name: 'Op',
      email: uniqueEmail(),
      password: 'long enough',
      roles: ['ROLE_SELLER'],
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().roles).toEqual(['ROLE_SELLER']);
  });

  it('answers 409 for an email already registered, whatever its case', async () => {
    const email = uniqueEmail('dup');
    expect((await post({ name: 'A', email, password: 'long enough' })).statusCode).toBe(201);
    const again = await post({ name: 'B', email: email.toUpperCase(), password: 'long enough' });
    const body = expectProblem(again, 409, 'email_taken');
    expect(body.errors).toEqual([{ in: 'body', name: 'email', detail: 'is already registered' }]);
  });

  const bad: [string, unknown, string][] = [
    ['a missing email', { name: 'A', password: 'long enough' }, 'email'],
    ['an invalid email', { name: 'A', email: 'not-an-email', password: 'long enough' }, 'email'],
    [
      'a password under 8 characters',
      { name: 'A', email: 'a@b.example', password: 'short' },
      'password',
    ],
    ['a missing password', { name: 'A', email: 'a@b.example' }, 'password'],
    ['a missing name', { email: 'a@b.example', password: 'long enough' }, 'name'],
    [
      'an unknown role',
      { name: 'A', email: 'a@b.example', password: 'long enough', roles: ['ROLE_KING'] },
      'roles.0',
    ],
    [
      'ROLE_ADMIN',
      { name: 'A', email: 'a@b.example', password: 'long enough', roles: ['ROLE_ADMIN'] },
      'roles.0',
    ],
    [
      'an unknown field',
      { name: 'A', email: 'a@b.example', password: 'long enough', admin: true },
      'admin',
    ],
    ['a wrong type', { name: 'A', email: 'a@b.example', password: 12345678 }, 'password'],
  ];
  it.each(bad)('answers 400 for %s and creates nothing', async (_label, payload, field) => {
    const response = await post(payload);
    const body = expectProblem(response, 400, 'validation_failed');
    expect(body.errors?.[0]).toMatchObject({ in: 'body', name: field });
    const count = await t.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('email', '=', 'a@b.example')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('answers 400 for a body that is not an object', async () => {
    expectProblem(await post([1, 2]), 400, 'validation_failed');
    expectProblem(
      await t.app.inject({ method: 'POST', url: '/api/users' }),
      400,
      'validation_failed',
    );
  });
});

describe('GET /api/users/{id}', () => {
  let ann: Account;
  let bob: Account;
  let admin: Account;
  beforeAll(async () => {
    ann = await signUp(t.app);
    bob = await signUp(t.app);
    admin = await createAdmin(t);
    await as(t.app, ann, {
      method: 'POST',
      url: `/api/users/${ann.id}/meta`,
      payload: { 'acme/crm/id': 7 },
    });
  });

  it('shows a user to itself, without metadata unless private=true', async () => {
    const plain = await as(t.app, ann, { method: 'GET', url: `/api/users/${ann.id}` });
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toMatchObject({ id: ann.id, email: ann.email });
    expect(plain.json()).not.toHaveProperty('metadata');
    expect(plain.json()).not.toHaveProperty('apiKey');
    const full = await as(t.app, ann, { method: 'GET', url: `/api/users/${ann.id}?private=true` });
    expect(full.json().metadata).toEqual({ 'acme/crm/id': 7 });
  });

  it('shows any user, with metadata, to an admin', async () => {
    const response = await as(t.app, admin, {
      method: 'GET',
      url: `/api/users/${ann.id}?private=true`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().metadata).toEqual({ 'acme/crm/id': 7 });
  });

  it('refuses anyone else with 403', async () => {
    expectProblem(
      await as(t.app, bob, { method: 'GET', url: `/api/users/${ann.id}` }),
      403,
      'forbidden',
    );
    expectProblem(
      await as(t.app, bob, { method: 'GET', url: `/api/users/${ann.id}?private=true` }),
      403,
      'forbidden',
    );
  });

  it('answers 401 without credentials and for a wrong key', async () => {
    expectProblem(
      await t.app.inject({ method: 'GET', url: `/api/users/${ann.id}` }),
      401,
      'authentication_required',
    );
    expectProblem(
      await as(t.app, { apiKey: 'wrong' }, { method: 'GET', url: `/api/users/${ann.id}` }),
      401,
      'invalid_credentials',
    );
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expectProblem(
      await as(t.app, admin, { method: 'GET', url: '/api/users/0123456789abcdef01234567' }),
      404,
      'not_found',
    );
    const body = expectProblem(
      await as(t.app, admin, { method: 'GET', url: '/api/users/xyz' }),
      400,
      'validation_failed',
    );
    expect(body.errors?.[0]).toMatchObject({ in: 'path', name: 'id' });
    expectProblem(
      await as(t.app, ann, { method: 'GET', url: `/api/users/${ann.id}?private=maybe` }),
      400,
      'validation_failed',
    );
  });
});

describe('GET /api/users/me', () => {
  it('returns the caller with its API key, by header or query parameter', async () => {
    const ann = await signUp(t.app);
    const byHeader = await as(t.app, ann, { method: 'GET', url: '/api/users/me' });
    expect(byHeader.statusCode).toBe(200);
    expect(byHeader.json()).toMatchObject({ id: ann.id, apiKey: ann.apiKey });
    const byQuery = await t.app.inject({
      method: 'GET',
      url: `/api/users/me?apiKey=${encodeURIComponent(ann.apiKey)}`,
    });
    expect(byQuery.json()).toMatchObject({ id: ann.id, apiKey: ann.apiKey });
  });
});

describe('API keys', () => {
  it('returns the key to its owner and to an admin only', async () => {
    const ann = await signUp(t.app);
    const bob = await signUp(t.app);
    const admin = await createAdmin(t);
    const own = await as(t.app, ann, { method: 'GET', url: `/api/users/${ann.id}/apiKey` });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual({ apiKey: ann.apiKey });
    const byAdmin = await as(t.app, admin, { method: 'GET', url: `/api/users/${ann.id}/apiKey` });
    expect(byAdmin.json()).toEqual({ apiKey: ann.apiKey });
    expectProblem(
      await as(t.app, bob, { method: 'GET', url: `/api/users/${ann.id}/apiKey` }),
      403,
      'forbidden',
    );
    expectProblem(
      await as(t.app, bob, { method: 'POST', url: `/api/users/${ann.id}/apiKey` }),
      403,
      'forbidden',
    );
  });

  it('rotates the key: the old one is refused at once, the new one works', async () => {
    const ann = await signUp(t.app);
    const rotated = await as(t.app, ann, { method: 'POST', url: `/api/users/${ann.id}/apiKey` });
    expect(rotated.statusCode).toBe(200);
    const { apiKey } = rotated.json();
    expect(apiKey).not.toBe(ann.apiKey);
    expectProblem(
      await as(t.app, ann, { method: 'GET', url: '/api/users/me' }),
      401,
      'invalid_credentials',
    );
    const me = await as(t.app, { apiKey }, { method: 'GET', url: '/api/users/me' });
    expect(me.json()).toMatchObject({ id: ann.id, apiKey });
  });

  it('stores keys encrypted, never in clear', async () => {
    const ann = await signUp(t.app);
    const row = await t.database.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', ann.id)
      .executeTakeFirstOrThrow();
    const dump = JSON.stringify(row) + Buffer.from(row.api_key_ciphertext).toString('latin1');
    expect(dump).not.toContain(ann.apiKey);
    expect(row.password_hash).not.toContain(ann.password);
    expect(row.password_hash.startsWith('scrypt$')).toBe(true);
  });
});
