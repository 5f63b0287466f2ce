import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  basic,
  createTestApp,
  expectProblem,
  signUp,
  type Account,
  type TestApp,
} from '../helpers/app.js';

describe('in production', () => {
  let t: TestApp;
  let ann: Account;
  beforeAll(async () => {
    t = await createTestApp({ BOOKING_ENV: 'production' });
    ann = await signUp(t.app);
  });
  afterAll(async () => t.close());

  it('refuses Basic with a 401 that says it is sandbox-only, even with the right password', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: { authorization: basic(ann.email, ann.password) },
    });
    const body = expectProblem(response, 401, 'basic_auth_sandbox_only');
    expect(body.detail).toMatch(/sandbox/);
  });

  it('prefers the API key when both are sent', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: { authorization: basic(ann.email, 'wrong'), 'x-api-key': ann.apiKey },
    });
    expect(response.statusCode).toBe(200);
  });

  it('answers 401 for other schemes, malformed Basic and wrong or oversized keys', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ authorization: 'Bearer abc' }, 'unsupported_authorization'],
      [{ 'x-api-key': 'nope' }, 'invalid_credentials'],
      [{ 'x-api-key': 'k'.repeat(500) }, 'invalid_credentials'],
    ];
    for (const [headers, code] of cases) {
      expectProblem(
        await t.app.inject({ method: 'GET', url: '/api/users/me', headers }),
        401,
        code,
      );
    }
    expectProblem(
      await t.app.inject({ method: 'GET', url: '/api/users/me?apiKey=a&apiKey=b' }),
      401,
      'invalid_credentials',
    );
  });

  it('answers 401 for a wrong key even on a public endpoint', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { 'x-api-key': 'wrong' },
      payload: { name: 'A', email: 'x@example.com', password: 'long enough' },
    });
    expectProblem(response, 401, 'invalid_credentials');
  });
});

describe('in the sandbox', () => {
  let t: TestApp;
  let ann: Account;
  beforeAll(async () => {
    t = await createTestApp({ BOOKING_ENV: 'sandbox' });
    ann = await signUp(t.app);
  });
  afterAll(async () => t.close());

  it('logs in with Basic email:password and returns the API key, as existing clients expect', async () => {
    for (let i = 0; i < 2; i++) {
      // The second call is served from the verified-credentials cache; same answer.
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/users/me',
        headers: { authorization: basic(ann.email.toUpperCase(), ann.password) },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: ann.id, apiKey: ann.apiKey });
    }
  });

  it('answers 401 for a wrong password, an unknown email and a malformed header', async () => {
    for (const authorization of [
      basic(ann.email, 'wrong password'),
      basic('nobody@example.com', ann.password),
      'Basic ' + Buffer.from('no-colon').toString('base64'),
    ]) {
      expectProblem(
        await t.app.inject({ method: 'GET', url: '/api/users/me', headers: { authorization } }),
        401,
        'invalid_credentials',
      );
    }
  });

  it('stops accepting a cached password once the password changes', async () => {
    const headers = { authorization: basic(ann.email, ann.password) };
    expect((await t.app.inject({ method: 'GET', url: '/api/users/me', headers })).statusCode).toBe(
      200,
    );
    const { hashPassword } = await import('../../src/security/passwords.js');
    await t.database.db
      .updateTable('users')
      .set({ password_hash: await hashPassword('a brand new password') })
      .where('id', '=', ann.id)
      .execute();
    expectProblem(
      await t.app.inject({ method: 'GET', url: '/api/users/me', headers }),
      401,
      'invalid_credentials',
    );
  });
});
