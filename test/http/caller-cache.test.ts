/**
 * Verified API keys are kept in memory on the embedded database too (PGlite's LISTEN hears
 * the same notifications): a request needs no authentication query, and a rotation or a
 * delegation change is effective from the next request.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const me = (apiKey: string) =>
  as(t.app, { apiKey }, { method: 'GET', url: '/api/users/me' }).then((r) => r.statusCode);

describe('cached API keys (embedded)', () => {
  it('answers a known key from memory and refuses a rotated one at once', async () => {
    const user = await signUp(t.app);
    expect(await me(user.apiKey)).toBe(200);
    // Revoked behind the service's back (no notification): still answered from memory.
    await sql`update users set api_key_digest = sha256('x'::bytea) where id = ${user.id}`.execute(
      t.database.db,
    );
    expect(await me(user.apiKey)).toBe(200);

    const other = await signUp(t.app);
    expect(await me(other.apiKey)).toBe(200);
    const rotated = await as(t.app, other, {
      method: 'POST',
      url: `/api/users/${other.id}/apiKey`,
    });
    expect(await me(other.apiKey)).toBe(401);
    expect(await me(rotated.json().apiKey)).toBe(200);
  });
});
