/**
 * `PUT /api/users/{id}`: a user changes its name, email or password. Email and password
 * need the current password; a new password rotates the API key (the old one refused at
 * once); nobody else may change a user; every refusal changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  as,
  basic,
  createAdmin,
  createTestApp,
  expectProblem,
  signUp,
  type Account,
  type TestApp,
} from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ BOOKING_ENV: 'sandbox' });
});
afterAll(async () => t.close());

const put = (account: Account, id: string, payload: Record<string, unknown>) =>
  as(t.app, account, { method: 'PUT', url: `/api/users/${id}`, payload });
const me = (headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/api/users/me', headers });

describe('PUT /api/users/{id}', () => {
  it('changes the name with the API key alone', async () => {
    const user = await signUp(t.app, { name: 'Old Name' });
    const changed = await put(user, user.id, { name: 'New Name' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ id: user.id, name: 'New Name', email: user.email });
    expect(changed.json().apiKey).toBeUndefined();
    expect((await me({ 'x-api-key': user.apiKey })).json().name).toBe('New Name');
  });

  it('takes its own email sent back, in any case, as no change of the email', async () => {
    const email = `Ann.Case.${Date.now()}@Example.com`;
    const user = await signUp(t.app, { email });
    const same = await put(user, user.id, { name: 'Ann Case', email });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toMatchObject({ name: 'Ann Case', email });
    const lower = await put(user, user.id, { email: email.toLowerCase() });
    expect(lower.statusCode, lower.body).toBe(200);
    expect(lower.json().email).toBe(email);
  });

  it('changes the password with the current one, rotating the key', async () => {
    const user = await signUp(t.app);
    const changed = await put(user, user.id, {
      password: 'a brand new passphrase',
      currentPassword: user.password,
    });
    expect(changed.statusCode).toBe(200);
    const newKey = changed.json().apiKey as string;
    expect(newKey).toBeTruthy();
    expect(newKey).not.toBe(user.apiKey);
    expectProblem(await me({ 'x-api-key': user.apiKey }), 401, 'invalid_credentials');
    expect((await me({ 'x-api-key': newKey })).statusCode).toBe(200);
    expect(
      (await me({ authorization: basic(user.email, 'a brand new passphrase') })).statusCode,
    ).toBe(200);
    expectProblem(
      await me({ authorization: basic(user.email, user.password) }),
      401,
      'invalid_credentials',
    );
  });

  it('changes the email with the current password; a taken one is 409', async () => {
    const user = await signUp(t.app);
    const other = await signUp(t.app);
    expectProblem(
      await put(user, user.id, { email: other.email, currentPassword: user.password }),
      409,
      'email_taken',
    );
    const fresh = `Renamed.${user.id}@Example.com`;
    const changed = await put(user, user.id, { email: fresh, currentPassword: user.password });
    expect(changed.json().email).toBe(fresh.toLowerCase());
  });

  it('refuses email and password changes without the right current password, changing nothing', async () => {
    const user = await signUp(t.app, { name: 'Kept' });
    const missing = expectProblem(
      await put(user, user.id, { password: 'another passphrase' }),
      400,
      'validation_failed',
    );
    expect(missing.errors?.[0]?.name).toBe('currentPassword');
    expectProblem(
      await put(user, user.id, { email: 'thief@example.com', currentPassword: 'wrong one' }),
      403,
      'forbidden',
    );
    expectProblem(
      await put(user, user.id, { name: 'Changed', password: 'x', currentPassword: user.password }),
      400,
      'validation_failed',
    );
    expectProblem(await put(user, user.id, {}), 400, 'validation_failed');
    expectProblem(await put(user, user.id, { role: 'ROLE_ADMIN' }), 400, 'validation_failed');
    const now = (await me({ 'x-api-key': user.apiKey })).json();
    expect(now).toMatchObject({ name: 'Kept', email: user.email });
  });

  it('counts wrong current passwords as failed sign-ins: a leaked key cannot guess at speed', async () => {
    // The tests' apps run without the throttle; this one has the production default.
    const throttled = await createTestApp({ AUTH_FAILURES_PER_ADDRESS: '20' });
    onTestFinished(() => throttled.close());
    const user = await signUp(throttled.app, { name: 'Guessed' });
    const taken = (await signUp(throttled.app, { name: 'Other' })).email;
    const guess = (currentPassword: string, remoteAddress = '192.0.2.40') =>
      throttled.app.inject({
        method: 'PUT',
        url: `/api/users/${user.id}`,
        remoteAddress,
        headers: { 'x-api-key': user.apiKey },
        payload: { email: taken, currentPassword },
      });
    for (let i = 0; i < 5; i++) expectProblem(await guess(`wrong ${i}`), 403, 'forbidden');
    // From the fifth failure on, this address waits before trying this account again: even
    // the right password is not tried (it would tell the guesser it is right).
    const waiting = expectProblem(await guess(user.password), 429, 'rate_limited');
    expect(waiting).not.toHaveProperty('errors');
    // The owner elsewhere is not held by it, and its right password forgives that address.
    expectProblem(await guess(user.password, '192.0.2.41'), 409, 'email_taken');
    for (let i = 0; i < 4; i++) expectProblem(await guess(`x${i}`, '192.0.2.41'), 403, 'forbidden');
    expectProblem(await guess(user.password, '192.0.2.41'), 409, 'email_taken');
    expectProblem(await guess('one more wrong', '192.0.2.41'), 403, 'forbidden');
    // Four and one failures, the right password between them: no wait.
    expectProblem(await guess(user.password, '192.0.2.41'), 409, 'email_taken');
  });

  it('lets nobody else change a user; an admin may, without a password', async () => {
    const user = await signUp(t.app);
    const stranger = await signUp(t.app);
    expectProblem(await put(stranger, user.id, { name: 'Hijacked' }), 403, 'forbidden');
    const admin = await createAdmin(t);
    const changed = await put(admin, user.id, { password: 'reset by admin 1' });
    expect(changed.statusCode).toBe(200);
    expectProblem(await me({ 'x-api-key': user.apiKey }), 401, 'invalid_credentials');
  });
});
