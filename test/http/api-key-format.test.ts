/**
 * API keys a person can paste anywhere: new and rotated keys (and publishable keys) are
 * letters and digits only, with the same entropy as before, and keys issued in the older
 * base64url form (with `-` and `_`) keep working.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyDigest, createApiKeyCipher } from '../../src/security/api-keys.js';
import { as, createTestApp, signUp, TEST_SECRET, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const ALPHANUMERIC_KEY = /^[A-Za-z0-9]{43}$/;

describe('API keys', () => {
  it('are issued as 43 letters and digits at sign-up and on rotation', async () => {
    const ann = await signUp(t.app, { roles: ['ROLE_SELLER'] });
    expect(ann.apiKey).toMatch(ALPHANUMERIC_KEY);
    const rotated = await as(t.app, ann, { method: 'POST', url: `/api/users/${ann.id}/apiKey` });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().apiKey).toMatch(ALPHANUMERIC_KEY);
  });

  it('issued in the older base64url form keep working', async () => {
    const bob = await signUp(t.app);
    const legacy = 'Ab-_cd' + 'x'.repeat(37);
    await t.database.db
      .updateTable('users')
      .set({
        api_key_digest: apiKeyDigest(legacy),
        api_key_ciphertext: createApiKeyCipher(TEST_SECRET).encrypt(legacy, bob.id),
      })
      .where('id', '=', bob.id)
      .execute();
    const me = await as(t.app, { apiKey: legacy }, { method: 'GET', url: '/api/users/me' });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: bob.id, apiKey: legacy });
    const byQuery = await t.app.inject({
      method: 'GET',
      url: `/api/users/me?apiKey=${encodeURIComponent(legacy)}`,
    });
    expect(byQuery.statusCode).toBe(200);
  });

  it('for the checkout are pk_ and 32 letters and digits', async () => {
    const seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
    const made = await as(t.app, seller, {
      method: 'POST',
      url: `/api/sellers/${seller.id}/publishable-keys`,
      payload: { label: 'site' },
    });
    expect(made.statusCode).toBe(201);
    expect(made.json().key).toMatch(/^pk_[A-Za-z0-9]{32}$/);
  });
});
