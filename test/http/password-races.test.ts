/**
 * Account credentials changed by requests that run at once (docs/security.md, "Passwords"):
 * a password change or a key rotation that lost the race is refused, never written over the
 * one that won; and password guesses sent at once are held to the throttle's limits as
 * guesses sent one after another are (the current password of a change, and Basic).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, basic, createTestApp, expectProblem, signUp, type TestApp } from '../helpers/app.js';

const statuses = (answers: { statusCode: number }[]) =>
  answers.map((r) => r.statusCode).sort((a, b) => a - b);

describe('credentials changed at once', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BOOKING_ENV: 'sandbox' });
  });
  afterAll(async () => t.close());

  const me = (headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/api/users/me', headers });

  it('two password changes with the same current password: the second is refused, not a silent undo', async () => {
    const user = await signUp(t.app, { password: 'old password 1' });
    const change = (password: string) =>
      as(t.app, user, {
        method: 'PUT',
        url: `/api/users/${user.id}`,
        payload: { password, currentPassword: 'old password 1' },
      });
    const answers = await Promise.all([change('owner new password'), change('other new password')]);
    expect(statuses(answers)).toEqual([200, 403]);
    const won = answers.find((r) => r.statusCode === 200)!;
    const lost = answers.find((r) => r.statusCode === 403)!;
    expect(expectProblem(lost, 403, 'forbidden').errors?.[0]?.name).toBe('currentPassword');
    // The key the winner was given works; its password is the one in force.
    expect((await me({ 'x-api-key': won.json().apiKey })).statusCode).toBe(200);
    const winner = answers[0] === won ? 'owner new password' : 'other new password';
    const loser = answers[0] === won ? 'other new password' : 'owner new password';
    expect((await me({ authorization: basic(user.email, winner) })).statusCode).toBe(200);
    expect((await me({ authorization: basic(user.email, loser) })).statusCode).toBe(401);
  });

  it('two key rotations at once: one key answered, and it is the one that works', async () => {
    const user = await signUp(t.app);
    const rotate = () => as(t.app, user, { method: 'POST', url: `/api/users/${user.id}/apiKey` });
    const answers = await Promise.all([rotate(), rotate()]);
    expect(statuses(answers)).toEqual([200, 403]);
    expectProblem(
      answers.find((r) => r.statusCode === 403)!,
      403,
      'forbidden',
    );
    const won = answers.find((r) => r.statusCode === 200)!;
    const now = await me({ 'x-api-key': won.json().apiKey });
    expect(now.statusCode).toBe(200);
    expect(now.json().apiKey).toBe(won.json().apiKey);
  });
});

describe('password guesses sent at once', () => {
  // The production default; the tests' other apps run without the throttle.
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_FAILURES_PER_ADDRESS: '20', BOOKING_ENV: 'sandbox' });
  });
  afterAll(async () => t.close());

  it('test at most five current passwords of a change from one address, the rest 429', async () => {
    const user = await signUp(t.app, { password: 'right password 1' });
    const answers = await Promise.all(
      Array.from({ length: 34 }, (_, i) =>
        t.app.inject({
          method: 'PUT',
          url: `/api/users/${user.id}`,
          remoteAddress: '203.0.113.10',
          headers: { 'x-api-key': user.apiKey },
          payload: { email: `y${i}@example.com`, currentPassword: `guess ${i}` },
        }),
      ),
    );
    const tested = answers.filter((r) => r.statusCode === 403).length;
    expect(tested).toBeGreaterThan(0);
    expect(tested).toBeLessThanOrEqual(5);
    for (const r of answers.filter((a) => a.statusCode !== 403)) {
      expectProblem(r, 429, 'rate_limited');
    }
    // The owner, from another address, is not held by it.
    const owner = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      remoteAddress: '203.0.113.11',
      headers: { 'x-api-key': user.apiKey },
      payload: { email: 'owner.moved@example.com', currentPassword: 'right password 1' },
    });
    expect(owner.statusCode).toBe(200);
  });

  it('test at most five Basic passwords of an account from one address, the rest 429', async () => {
    const user = await signUp(t.app, { password: 'right password 2' });
    const answers = await Promise.all(
      Array.from({ length: 34 }, (_, i) =>
        t.app.inject({
          method: 'GET',
          url: '/api/users/me',
          remoteAddress: '203.0.113.20',
          headers: { authorization: basic(user.email, `guess ${i}`) },
        }),
      ),
    );
    const tested = answers.filter((r) => r.statusCode === 401).length;
    expect(tested).toBeGreaterThan(0);
    expect(tested).toBeLessThanOrEqual(5);
    for (const r of answers.filter((a) => a.statusCode !== 401)) {
      expectProblem(r, 429, 'rate_limited');
    }
    const owner = await t.app.inject({
      method: 'GET',
      url: '/api/users/me',
      remoteAddress: '203.0.113.21',
      headers: { authorization: basic(user.email, 'right password 2') },
    });
    expect(owner.statusCode).toBe(200);
  });
});
