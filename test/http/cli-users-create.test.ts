/**
 * `cli users create` holds a new account to the API's own rules for its name, email and
 * password (users.schemas.ts, NewAccountFields): the command line skips the route, and an
 * account it made with an address without an @ or a one-letter password stayed usable.
 * Both paths refuse a name of spaces alone (it was stored trimmed: empty).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliOn } from '../helpers/cli.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const accountsWith = async (email: string) =>
  (await t.database.db.selectFrom('users').select('id').where('email', '=', email).execute())
    .length;

describe('cli users create', () => {
  it.each([
    [
      'an email without an @',
      ['--email', 'not-an-address', '--name', 'A', '--password', 'long enough 1'],
      'email',
    ],
    [
      'a password under 8 characters',
      ['--email', 'short@example.com', '--name', 'A', '--password', 'x'],
      'password',
    ],
    [
      'a name over 200 characters',
      ['--email', 'longname@example.com', '--name', 'n'.repeat(201), '--password', 'long enough 1'],
      'name',
    ],
  ])('refuses %s, naming the field, and makes no account', async (_, flags, field) => {
    const email = flags[flags.indexOf('--email') + 1]!;
    const result = await cliOn(t, 'users', 'create', ...flags);
    expect(result.code).toBe(1);
    expect(result.out.join('\n')).toMatch(new RegExp(`^validation_failed: ${field}: `));
    expect(await accountsWith(email)).toBe(0);
  });

  it('refuses a name of spaces alone, as the API does', async () => {
    const cli = await cliOn(t, 'users', 'create', '--email', 'blank@example.com', '--name', '   ');
    expect(cli.code).toBe(1);
    expect(cli.out.join('\n')).toMatch(/^validation_failed: name: /);
    const api = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      payload: { name: '  \t ', email: 'blank@example.com', password: 'long enough 1' },
    });
    expect(api.statusCode, api.body).toBe(400);
    expect(api.json().errors).toEqual([expect.objectContaining({ in: 'body', name: 'name' })]);
    expect(await accountsWith('blank@example.com')).toBe(0);
  });

  it('makes an account whose key works when every field is valid', async () => {
    const result = await cliOn(
      t,
      'users',
      'create',
      '--email',
      'ok@example.com',
      '--name',
      'Ok',
      '--admin',
    );
    expect(result.code, result.out.join('\n')).toBe(0);
    const made = JSON.parse(result.out.join('\n')) as { apiKey: string; roles: string[] };
    expect(made.roles).toContain('ROLE_ADMIN');
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: { 'X-API-KEY': made.apiKey },
    });
    expect(me.statusCode, me.body).toBe(200);
  });
});
